// Pre-account hijacking (decision 0041), through supabase-js on both engines: somebody (the
// squatter) signs up with another person's address or number and a password of their own. Every
// path that proves the address or number for the first time without that password (a sign-in link
// or code, a second sign-up, an invitation, a recovery link, an admin's confirmation) voids it and
// ends whatever the account held before; the confirmation of the very sign-up that set the
// password keeps it. With MAILER_AUTOCONFIRM=true a sign-up on an unconfirmed account hands
// nobody anything.
import type { SupabaseClient } from "@supabase/supabase-js";
import { afterAll, expect, it } from "vitest";
import { describeAuthSuite } from "../../../tests/support/auth-suite.ts";
import {
  codeIn,
  followLink,
  linkIn,
  PASSWORD,
  uniqueEmail,
  uniquePhone,
} from "../../../tests/support/auth.ts";
import { startSmsHook } from "../../../tests/support/sms-hook.ts";

const SQUATTER_PASSWORD = "Squatters-Own-77";
const hook = await startSmsHook();
afterAll(() => hook.stop());

/** Password sign-in is refused as for a wrong password: the squatter's password is void. */
async function expectVoid(
  client: () => SupabaseClient,
  who: { email: string } | { phone: string },
) {
  const { data, error } = await client().auth.signInWithPassword({
    ...who,
    password: SQUATTER_PASSWORD,
  });
  expect(data.session).toBeNull();
  expect(error).toMatchObject({ status: 400, code: "invalid_credentials" });
}

describeAuthSuite(
  "auth: the first proof of an address voids what came before it",
  ({ server, client, auth, emailTo, count }) => {
    /** The squatter's sign-up with the owner's address: its confirmation email goes to the owner. */
    async function squat(label: string) {
      const email = uniqueEmail(label);
      const { error } = await client().auth.signUp({ email, password: SQUATTER_PASSWORD });
      expect(error).toBeNull();
      return email;
    }
    const passwordOf = async (email: string) =>
      count(
        "SELECT count(*)::int AS n FROM auth.users WHERE email = $1 AND encrypted_password IS NOT NULL",
        [email],
      );

    it("keeps the password through the sign-up's own confirmation link", async () => {
      const email = await squat("own-link");
      const { fragment } = await followLink(
        linkIn(await emailTo(email, "Confirm your Revwise account")),
      );
      expect(fragment.get("access_token")).toBeTruthy();
      const signedIn = await client().auth.signInWithPassword({
        email,
        password: SQUATTER_PASSWORD,
      });
      expect(signedIn.error).toBeNull();
    });

    it("voids it when the owner signs in by an emailed link", async () => {
      const email = await squat("otp-link");
      const owner = client();
      expect((await owner.auth.signInWithOtp({ email })).error).toBeNull();
      // Within the confirmation's minute no second email goes out: the owner has the first one,
      // and the sign-in request alone makes its confirmation void the password.
      const { fragment } = await followLink(
        linkIn(await emailTo(email, "Confirm your Revwise account")),
      );
      const token = fragment.get("access_token")!;
      expect((await owner.auth.getUser(token)).data.user).toMatchObject({ email });
      await expectVoid(client, { email });
      expect(await passwordOf(email)).toBe(0);
    });

    it("voids it when the owner types the emailed code", async () => {
      const email = await squat("otp-code");
      const owner = client();
      expect((await owner.auth.signInWithOtp({ email })).error).toBeNull();
      const code = codeIn(await emailTo(email, "Confirm your Revwise account"));
      const verified = await owner.auth.verifyOtp({ email, token: code, type: "email" });
      expect(verified.error).toBeNull();
      await expectVoid(client, { email });
      // The owner sets a password of their own from the session the code gave them.
      expect((await owner.auth.updateUser({ password: PASSWORD })).error).toBeNull();
      expect(
        (await client().auth.signInWithPassword({ email, password: PASSWORD })).error,
      ).toBeNull();
    });

    it("voids it when the owner signs up again (their own password is not taken either)", async () => {
      const email = await squat("signup-again");
      const again = await client().auth.signUp({ email, password: PASSWORD });
      expect(again.error).toBeNull();
      expect(again.data.session).toBeNull();
      const { fragment } = await followLink(
        linkIn(await emailTo(email, "Confirm your Revwise account")),
      );
      expect(fragment.get("access_token")).toBeTruthy();
      await expectVoid(client, { email });
      const owners = await client().auth.signInWithPassword({ email, password: PASSWORD });
      expect(owners.error).toMatchObject({ code: "invalid_credentials" });
    });

    it("voids it when a recovery link confirms the address", async () => {
      const email = await squat("recovery");
      expect((await client().auth.resetPasswordForEmail(email)).error).toBeNull();
      const { fragment } = await followLink(
        linkIn(await emailTo(email, "Reset your Revwise password")),
      );
      expect(fragment.get("access_token")).toBeTruthy();
      await expectVoid(client, { email });
    });

    it("voids it when an invitation confirms the address", async () => {
      const email = await squat("invite");
      const { error } = await server.admin().auth.admin.inviteUserByEmail(email);
      expect(error).toBeNull();
      const { fragment } = await followLink(
        linkIn(await emailTo(email, "You are invited to Revwise")),
      );
      expect(fragment.get("access_token")).toBeTruthy();
      await expectVoid(client, { email });
    });

    it("voids it when an admin confirms the address, unless the admin sets one", async () => {
      const admin = server.admin().auth.admin;
      const email = await squat("admin-confirm");
      const [{ id }] = await ctxUser(email);
      expect((await admin.updateUserById(id, { email_confirm: true })).error).toBeNull();
      await expectVoid(client, { email });

      const other = await squat("admin-confirm-set");
      const [{ id: otherId }] = await ctxUser(other);
      await admin.updateUserById(otherId, { email_confirm: true, password: PASSWORD });
      const signedIn = await client().auth.signInWithPassword({ email: other, password: PASSWORD });
      expect(signedIn.error).toBeNull();
    });

    it("ends the sessions made before the first proof", async () => {
      // An account can hold a session before any address of it is proven: an anonymous one,
      // to which an admin gave an address without confirming it.
      const squatter = client();
      const { data } = await squatter.auth.signInAnonymously();
      const email = uniqueEmail("before-proof");
      await server.admin().auth.admin.updateUserById(data.user!.id, { email });
      const owner = client();
      await owner.auth.signInWithOtp({ email });
      const { fragment } = await followLink(
        linkIn(await emailTo(email, "Your Revwise sign-in link")),
      );
      expect(fragment.get("access_token")).toBeTruthy();
      expect((await squatter.auth.refreshSession()).error).toMatchObject({ status: 400 });
      expect(
        await count("SELECT count(*)::int AS n FROM auth.sessions WHERE user_id = $1", [
          data.user!.id,
        ]),
      ).toBe(1);
    });

    it("voids a phone sign-up's password when the owner signs in by a texted code", async () => {
      const phone = uniquePhone();
      expect((await client().auth.signUp({ phone, password: SQUATTER_PASSWORD })).error).toBeNull();
      const owner = client();
      expect((await owner.auth.signInWithOtp({ phone })).error).toBeNull();
      const otp = await hook.codeFor(phone);
      expect((await owner.auth.verifyOtp({ phone, token: otp, type: "sms" })).error).toBeNull();
      await expectVoid(client, { phone });
    });

    it("keeps a phone sign-up's password through its own texted code", async () => {
      const phone = uniquePhone();
      const squatter = client();
      await squatter.auth.signUp({ phone, password: SQUATTER_PASSWORD });
      const otp = await hook.codeFor(phone);
      expect((await squatter.auth.verifyOtp({ phone, token: otp, type: "sms" })).error).toBeNull();
      const signedIn = await client().auth.signInWithPassword({
        phone,
        password: SQUATTER_PASSWORD,
      });
      expect(signedIn.error).toBeNull();
    });

    /** The user row of an address, read through the admin API's listing. */
    async function ctxUser(email: string): Promise<[{ id: string }]> {
      const res = await auth(`/admin/users?filter=${encodeURIComponent(email)}`, {
        headers: {
          apikey: server.serviceRoleKey,
          authorization: `Bearer ${server.serviceRoleKey}`,
        },
      });
      const { users } = (await res.json()) as { users: { id: string; email: string }[] };
      const user = users.find((u) => u.email === email);
      expect(user).toBeDefined();
      return [user!];
    }
  },
  {
    GOTRUE_EXTERNAL_PHONE_ENABLED: "true",
    GOTRUE_EXTERNAL_ANONYMOUS_USERS_ENABLED: "true",
    ...hook.env,
  },
);

describeAuthSuite(
  "auth: the first proof of an address with MAILER_AUTOCONFIRM=true",
  ({ server, client, emailTo, count }) => {
    it("hands nobody anything for a sign-up on an address whose account is unconfirmed", async () => {
      const email = uniqueEmail("autoconfirm-unconfirmed");
      // Unconfirmed though sign-ups confirm at once: an invitation not yet used.
      expect((await server.admin().auth.admin.inviteUserByEmail(email)).error).toBeNull();
      const squatter = await client().auth.signUp({ email, password: SQUATTER_PASSWORD });
      expect(squatter.data.session).toBeNull();
      expect(squatter.error).toMatchObject({ status: 422, code: "user_already_exists" });
      const signIn = await client().auth.signInWithPassword({ email, password: SQUATTER_PASSWORD });
      expect(signIn.data.session).toBeNull();
      expect(signIn.error).toMatchObject({ status: 400 });
      // The invitation still works, for the address's owner.
      const { fragment } = await followLink(
        linkIn(await emailTo(email, "You are invited to Revwise")),
      );
      expect(fragment.get("access_token")).toBeTruthy();
    });

    it("voids a sign-up's password and sessions, not its factors, at the address's first proof", async () => {
      // Confirmed as given: whoever signed up first holds the address until its owner proves it.
      const email = uniqueEmail("autoconfirm-squat");
      const squatter = client();
      const { data } = await squatter.auth.signUp({ email, password: SQUATTER_PASSWORD });
      expect(data.session).not.toBeNull();
      expect((await squatter.auth.mfa.enroll({ factorType: "totp" })).error).toBeNull();
      await client().auth.signInWithOtp({ email });
      const { fragment } = await followLink(
        linkIn(await emailTo(email, "Your Revwise sign-in link")),
      );
      expect(fragment.get("access_token")).toBeTruthy();
      await expectVoid(client, { email });
      expect((await squatter.auth.refreshSession()).error).toMatchObject({ status: 400 });
      // A factor stays: removing it would let the mailbox alone undo a second factor.
      expect(
        await count("SELECT count(*)::int AS n FROM auth.mfa_factors WHERE user_id = $1", [
          data.user!.id,
        ]),
      ).toBe(1);
      // Proven now: the next proof is not a first one.
      expect(
        await count(
          "SELECT count(*)::int AS n FROM auth.users WHERE email = $1 AND NOT email_unproven",
          [email],
        ),
      ).toBe(1);
    });

    it("voids an unconfirmed account's password when the owner signs in by link", async () => {
      const email = uniqueEmail("autoconfirm-admin");
      const admin = server.admin().auth.admin;
      // Made by an admin without confirmation, with a password somebody chose.
      await admin.createUser({ email, password: SQUATTER_PASSWORD });
      await client().auth.signInWithOtp({ email });
      const { fragment } = await followLink(
        linkIn(await emailTo(email, "Your Revwise sign-in link")),
      );
      expect(fragment.get("access_token")).toBeTruthy();
      await expectVoid(client, { email });
    });
  },
  { MAILER_AUTOCONFIRM: "true" },
);
