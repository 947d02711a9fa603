// GET and PUT /user: metadata, password, and an email change confirmed by both addresses (by either
// one with MAILER_AUTOCONFIRM).
import { decodeJwt } from "jose";
import type { ParsedMail } from "mailparser";
import { expect, it } from "vitest";
import {
  describeAuthSuite,
  describeAuthSuiteEachDatabase,
} from "../../../tests/support/auth-suite.ts";
import { codeIn, followLink, linkIn, PASSWORD, uniqueEmail } from "../../../tests/support/auth.ts";
import { addressOf } from "../../../tests/support/smtp.ts";
import { stepAt, totpCode } from "../../../tests/support/totp.ts";

describeAuthSuite(
  "auth: user",
  ({ ctx, smtp, client, confirmedUser, emailChangeMails, count, emailTo }) => {
    /** A confirmed account that has asked to move to a new address. */
    async function changingEmail(label: string, nextLabel: string) {
      const { email, supabase } = await confirmedUser(label);
      const next = uniqueEmail(nextLabel);
      expect((await supabase.auth.updateUser({ email: next })).error).toBeNull();
      return { email, supabase, next };
    }

    it("gets and updates the user: metadata merged, password changed", async () => {
      const { email, supabase } = await confirmedUser("update");
      const got = await supabase.auth.getUser();
      expect(got.data.user).toMatchObject({
        email,
        identities: [
          expect.objectContaining({ identity_id: expect.any(String), provider: "email", email }),
        ],
      });
      expect(got.data.user).not.toHaveProperty("factors");

      const meta = await supabase.auth.updateUser({ data: { team: "EMEA", role_title: "AE" } });
      expect(meta.data.user?.user_metadata).toMatchObject({ team: "EMEA", role_title: "AE" });
      const removed = await supabase.auth.updateUser({ data: { role_title: null } });
      expect(removed.data.user?.user_metadata).not.toHaveProperty("role_title");

      expect(
        (await supabase.auth.updateUser({ password: PASSWORD, current_password: PASSWORD })).error,
      ).toMatchObject({
        code: "same_password",
      });
      for (const password of ["short", ""])
        expect(
          (await supabase.auth.updateUser({ password, current_password: PASSWORD })).error,
        ).toMatchObject({
          code: "weak_password",
          reasons: ["length"],
        });
      // GoTrue counts a password's length in bytes: four two-byte letters are eight.
      expect(
        (await supabase.auth.updateUser({ password: "éàüö", current_password: PASSWORD })).error,
      ).toBeNull();
      expect(
        (await supabase.auth.updateUser({ password: PASSWORD, current_password: "éàüö" })).error,
      ).toBeNull();
      // An empty email is no change; app_metadata is the admin API's.
      expect((await supabase.auth.updateUser({ email: "" })).data.user?.email).toBe(email);
      expect(
        (
          await supabase.auth.updateUser({
            data: {},
            app_metadata: { team_role: "admin" },
          } as never)
        ).error,
      ).toMatchObject({
        status: 403,
        code: "not_admin",
        message: "Updating app_metadata requires admin privileges",
      });
      expect(
        (
          await supabase.auth.updateUser({
            password: "New-Strong-Passphrase-7",
            current_password: PASSWORD,
          })
        ).error,
      ).toBeNull();
      expect(
        (await client().auth.signInWithPassword({ email, password: PASSWORD })).error,
      ).toMatchObject({ code: "invalid_credentials" });
      expect(
        (await client().auth.signInWithPassword({ email, password: "New-Strong-Passphrase-7" }))
          .error,
      ).toBeNull();
    });

    it("changes the password, email or phone of an account with a second factor only from aal2", async () => {
      const { email, supabase } = await confirmedUser("update-mfa");
      const { data } = await supabase.auth.mfa.enroll({ factorType: "totp" });
      const factor = data as { id: string; totp: { secret: string } };
      const code = () => totpCode(factor.totp.secret, stepAt(Date.now()));
      expect(
        (await supabase.auth.mfa.challengeAndVerify({ factorId: factor.id, code: code() })).error,
      ).toBeNull();
      // A password sign-in alone is aal1.
      const aal1 = client();
      await aal1.auth.signInWithPassword({ email, password: PASSWORD });
      for (const change of [
        { password: "Another-Strong-Passphrase-8" },
        { email: uniqueEmail("update-mfa-next") },
        { phone: "+15555550123" },
      ])
        expect((await aal1.auth.updateUser(change)).error).toMatchObject({
          status: 401,
          code: "insufficient_aal",
          message: "AAL2 session is required to update email or password when MFA is enabled.",
        });
      // The same values as now, and metadata, need nothing more.
      expect((await aal1.auth.updateUser({ email, data: { team: "EMEA" } })).error).toBeNull();
      expect(
        (await client().auth.signInWithPassword({ email, password: PASSWORD })).error,
      ).toBeNull();
      // From aal2 the password changes.
      expect(
        (
          await supabase.auth.updateUser({
            password: "Another-Strong-Passphrase-8",
            current_password: PASSWORD,
          })
        ).error,
      ).toBeNull();
    });

    it("keeps merged user metadata within its limit and unchanged when an update is refused", async () => {
      const { supabase } = await confirmedUser("metadata");
      expect((await supabase.auth.updateUser({ data: { a: "x".repeat(6000) } })).error).toBeNull();
      expect(
        (await supabase.auth.updateUser({ data: { b: "y".repeat(6000) } })).error,
      ).toMatchObject({ status: 400, code: "validation_failed" });
      const { data } = await supabase.auth.getUser();
      expect(data.user!.user_metadata).not.toHaveProperty("b");
      expect(data.user!.user_metadata.a).toHaveLength(6000);
    });

    it("changes the email only after both addresses confirm", async () => {
      const { email, supabase } = await confirmedUser("change");
      const next = uniqueEmail("changed");
      const { data, error } = await supabase.auth.updateUser({ email: next });
      expect(error).toBeNull();
      expect(data.user).toMatchObject({ email, new_email: next });
      const { toNew, toCurrent } = await emailChangeMails(email, next);
      const first = await followLink(linkIn(toNew));
      expect(first.fragment.get("message")).toBe(
        "Confirmation link accepted. Please proceed to confirm link sent to the other email",
      );
      const second = await followLink(linkIn(toCurrent));
      expect(second.fragment.get("access_token")).toBeTruthy();
      expect(
        (await client().auth.signInWithPassword({ email: next, password: PASSWORD })).error,
      ).toBeNull();
    });

    it("sends both links again when an email change is resent, and needs both again: the new address alone never completes it", async () => {
      const { email, next } = await changingEmail("resent", "resent-next");
      const first = await emailChangeMails(email, next);
      expect((await followLink(linkIn(first.toNew))).fragment.get("message")).toMatch(
        /confirm link sent to the other email/,
      );
      await ctx.db.query(
        "UPDATE auth.users SET email_change_sent_at = now() - interval '2 minutes' WHERE email = $1",
        [email],
      );
      expect((await client().auth.resend({ type: "email_change", email })).error).toBeNull();
      // The next email to the same address with the same subject as the first.
      const resent = (first: ParsedMail) =>
        smtp.waitFor(
          (m) =>
            addressOf(m) === addressOf(first) &&
            m.subject === first.subject &&
            m.text !== first.text,
        );
      const toNew = await resent(first.toNew);
      const toCurrent = await resent(first.toCurrent);
      // The earlier confirmation of the new address no longer counts: it must confirm again.
      expect((await followLink(linkIn(toNew))).fragment.get("message")).toMatch(
        /confirm link sent to the other email/,
      );
      expect(
        (await client().auth.signInWithPassword({ email, password: PASSWORD })).error,
      ).toBeNull();
      expect((await followLink(linkIn(toCurrent))).fragment.get("access_token")).toBeTruthy();
      expect(
        (await client().auth.signInWithPassword({ email: next, password: PASSWORD })).error,
      ).toBeNull();
    });

    it("voids the links of an earlier email change when the next change asks for a taken address", async () => {
      const { email, supabase, next: first } = await changingEmail("rechange", "first-choice");
      const earlierLinks = Object.values(await emailChangeMails(email, first)).map(linkIn);
      const { email: taken } = await confirmedUser("taken");
      expect((await supabase.auth.updateUser({ email: taken })).error).toBeNull();
      await emailTo(taken, /already/i);
      for (const link of earlierLinks)
        expect((await followLink(link)).fragment.get("error_code")).toBe("otp_expired");
      // Asking again a while later sends the taken address no link either.
      await ctx.db.query(
        "UPDATE auth.users SET email_change_sent_at = now() - interval '2 minutes' WHERE email = $1",
        [email],
      );
      expect((await client().auth.resend({ type: "email_change", email })).error).toBeNull();
      expect(
        await count(
          "SELECT count(*)::int AS n FROM mail.outbox WHERE to_address = $1 AND kind = 'auth-email-change'",
          [taken],
        ),
      ).toBe(1); // the notice only
      for (const address of [email, taken])
        expect(
          (await client().auth.signInWithPassword({ email: address, password: PASSWORD })).error,
        ).toBeNull();
    });

    it("finishes an email change by codes, signed in with the method otp", async () => {
      const { email, next } = await changingEmail("by-code", "by-code-next");
      const { toNew, toCurrent } = await emailChangeMails(email, next);
      const verify = (address: string, token: string) =>
        client().auth.verifyOtp({ email: address, token, type: "email_change" });
      expect((await verify(next, codeIn(toNew))).error).toBeNull();
      const { data, error } = await verify(email, codeIn(toCurrent));
      expect(error).toBeNull();
      expect(data.user?.email).toBe(next);
      expect(decodeJwt(data.session!.access_token).amr).toEqual([
        { method: "otp", timestamp: expect.any(Number) },
      ]);
    });

    it("refuses to finish an email change by code when the new address was taken meanwhile", async () => {
      const { email, next } = await changingEmail("race", "race-next");
      const { toNew, toCurrent } = await emailChangeMails(email, next);
      await confirmedUser("race-owner", next);
      const verify = (address: string, token: string) =>
        client().auth.verifyOtp({ email: address, token, type: "email_change" });
      expect((await verify(next, codeIn(toNew))).error).toBeNull();
      expect((await verify(email, codeIn(toCurrent))).error).toMatchObject({
        status: 403,
        code: "otp_expired",
      });
      expect(
        (await client().auth.signInWithPassword({ email, password: PASSWORD })).error,
      ).toBeNull();
    });
  },
);

describeAuthSuite(
  "auth: user with MAILER_AUTOCONFIRM=true",
  ({ client, emailChangeMails }) => {
    it("changes the email with either address's link: one confirmation is enough", async () => {
      for (const which of ["toNew", "toCurrent"] as const) {
        const email = uniqueEmail(`auto-change-${which.toLowerCase()}`);
        const supabase = client();
        expect(
          (await supabase.auth.signUp({ email, password: PASSWORD })).data.session,
        ).toBeTruthy();
        const next = uniqueEmail(`auto-changed-${which.toLowerCase()}`);
        const asked = await supabase.auth.updateUser({ email: next });
        expect(asked.data.user).toMatchObject({ email, new_email: next });
        const mails = await emailChangeMails(email, next);
        const { fragment } = await followLink(linkIn(mails[which]));
        expect([which, Boolean(fragment.get("access_token"))]).toEqual([which, true]);
        expect(
          (await client().auth.signInWithPassword({ email: next, password: PASSWORD })).error,
        ).toBeNull();
        // The other link was voided with the change.
        const other = mails[which === "toNew" ? "toCurrent" : "toNew"];
        expect((await followLink(linkIn(other))).fragment.get("error_code")).toBe("otp_expired");
      }
    });
  },
  { MAILER_AUTOCONFIRM: "true" },
);

// An email change asked again at the same moment is kept to one by the database alone: on each
// engine.
describeAuthSuiteEachDatabase(
  "auth: an email change asked again",
  ({ ctx, confirmedUser, emailChangeMails, count }) => {
    it.each([
      ["one after another", false],
      ["at once", true],
    ])(
      "keeps the links of an email change asked again within the minute (%s): sent once, and they work",
      async (_, together) => {
        const emailsTo = (addresses: string[]) =>
          count(
            "SELECT count(*)::int AS n FROM mail.outbox WHERE to_address = ANY($1) AND kind = 'auth-email-change'",
            [addresses],
          );
        const { email: taken } = await confirmedUser("repeat-taken");
        const { email, supabase } = await confirmedUser("repeat");
        const next = uniqueEmail("repeat-next");
        for (const to of [taken, next]) {
          const ask = () => supabase.auth.updateUser({ email: to });
          const answers = [await ask()];
          answers.push(
            ...(together
              ? await Promise.all(Array.from({ length: 5 }, ask))
              : [await ask(), await ask()]),
          );
          for (const { data, error } of answers) {
            expect(error).toBeNull();
            expect(data.user).toMatchObject({ email, new_email: to });
          }
          // The minute of one change does not hold back a change to another address.
          await ctx.db.query(
            "UPDATE auth.users SET email_change_sent_at = now() - interval '2 minutes' WHERE email = $1",
            [email],
          );
        }
        expect(await emailsTo([taken])).toBe(1); // the notice, once
        expect(await emailsTo([email, next])).toBe(2);
        const { toNew, toCurrent } = await emailChangeMails(email, next);
        expect((await followLink(linkIn(toNew))).fragment.get("message")).toMatch(
          /confirm link sent to the other email/,
        );
        expect((await followLink(linkIn(toCurrent))).fragment.get("access_token")).toBeTruthy();
      },
    );
  },
);
