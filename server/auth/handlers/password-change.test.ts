// A new password through supabase-js (PUT /user, GOTRUE_SECURITY_UPDATE_PASSWORD_REQUIRE_CURRENT_PASSWORD
// on by default): a session signed in with the password gives the current one (GoTrue's
// current_password_required / current_password_mismatch); an account without a password gives
// the code GET /reauthenticate emailed; a session an emailed link or code opened minutes ago (a
// password reset) needs neither. Every change is told to the account's address, once.
import { createClient } from "@supabase/supabase-js";
import { expect, it } from "vitest";
import { describeAuthSuite } from "../../../tests/support/auth-suite.ts";
import { codeIn, followLink, linkIn, PASSWORD, uniqueEmail } from "../../../tests/support/auth.ts";
import { addressOf } from "../../../tests/support/smtp.ts";

const CHANGED = "Your Revwise password was changed";
const CODE_SUBJECT = "Your Revwise confirmation code";

describeAuthSuite(
  "auth: password change",
  ({ ctx, server, smtp, client, confirmedUser, emailTo }) => {
    /** Makes every emailed-link entry of the user's sessions' amr a quarter of an hour old. */
    const ageEmailProof = (email: string) =>
      ctx.db.query(
        `UPDATE auth.sessions SET amr = (SELECT jsonb_agg(e || jsonb_build_object('timestamp', (e->>'timestamp')::bigint - 900))
         FROM jsonb_array_elements(amr) e)
       WHERE user_id = (SELECT id FROM auth.users WHERE email = $1)`,
        [email],
      );
    const noticesTo = async (email: string) =>
      (
        await ctx.db.query<{ n: number }>(
          "SELECT count(*)::int AS n FROM mail.outbox WHERE to_address = $1 AND subject = $2",
          [email, CHANGED],
        )
      )[0]!.n;

    it("asks a password session for the current password, and tells the owner once", async () => {
      const { email, supabase } = await confirmedUser("current");
      const next = `${PASSWORD}-next`;
      const missing = await supabase.auth.updateUser({ password: next });
      expect(missing.error).toMatchObject({
        status: 400,
        code: "current_password_required",
        message: "Current password required when setting new password.",
      });
      const wrong = await supabase.auth.updateUser({
        password: next,
        current_password: "nope-1234",
      });
      expect(wrong.error).toMatchObject({ status: 400, code: "current_password_mismatch" });
      // Nothing changed, and nobody was told of a change.
      expect(
        (await client().auth.signInWithPassword({ email, password: PASSWORD })).error,
      ).toBeNull();
      expect(await noticesTo(email)).toBe(0);

      const done = await supabase.auth.updateUser({ password: next, current_password: PASSWORD });
      expect(done.error).toBeNull();
      expect((await client().auth.signInWithPassword({ email, password: next })).error).toBeNull();
      const notice = await emailTo(email, CHANGED);
      expect(notice.text).toContain("The password of your Revwise account was just changed.");
      expect(notice.text).toContain(`${server.url}/account`);
      expect(notice.text).toContain(`${server.url}/auth`);
      expect(await noticesTo(email)).toBe(1);
      expect(
        smtp.messages.filter((m) => addressOf(m) === email && m.subject === CHANGED),
      ).toHaveLength(1);
    });

    it("lets a password reset's session set a new one without the old, for minutes only", async () => {
      const { email } = await confirmedUser("reset");
      const supabase = client();
      expect((await supabase.auth.resetPasswordForEmail(email)).error).toBeNull();
      const { fragment } = await followLink(
        linkIn(await emailTo(email, "Reset your Revwise password")),
      );
      const reset = createClient(server.url, server.anonKey, {
        auth: { persistSession: false, autoRefreshToken: false },
      });
      await reset.auth.setSession({
        access_token: fragment.get("access_token")!,
        refresh_token: fragment.get("refresh_token")!,
      });
      expect((await reset.auth.updateUser({ password: `${PASSWORD}-reset` })).error).toBeNull();
      await emailTo(email, CHANGED);
      // The link's proof does not last: later, the session is asked like any other.
      await ageEmailProof(email);
      expect((await reset.auth.updateUser({ password: `${PASSWORD}-later` })).error).toMatchObject({
        code: "current_password_required",
      });
    });

    it("asks an account without a password for an emailed code once its sign-in is not fresh", async () => {
      const email = uniqueEmail("no-password");
      const supabase = client();
      expect((await supabase.auth.signInWithOtp({ email })).error).toBeNull();
      const code = codeIn(await emailTo(email, /Revwise/));
      expect(
        (await supabase.auth.verifyOtp({ email, token: code, type: "email" })).error,
      ).toBeNull();
      await ageEmailProof(email);

      const first = `${PASSWORD}-first`;
      const refused = await supabase.auth.updateUser({ password: first });
      expect(refused.error).toMatchObject({ status: 400, code: "reauthentication_needed" });
      // A current password it does not have is no way in either.
      const guessed = await supabase.auth.updateUser({ password: first, current_password: first });
      expect(guessed.error).toMatchObject({ code: "reauthentication_needed" });
      expect((await supabase.auth.reauthenticate()).error).toBeNull();
      const nonce = codeIn(await emailTo(email, CODE_SUBJECT));
      expect((await supabase.auth.updateUser({ password: first, nonce })).error).toBeNull();
      expect((await client().auth.signInWithPassword({ email, password: first })).error).toBeNull();
      await emailTo(email, CHANGED);
    });
  },
);

describeAuthSuite(
  "auth: password change, current password not required",
  ({ confirmedUser }) => {
    it("changes the password from any session, as GoTrue's default does", async () => {
      const { supabase } = await confirmedUser("off");
      expect((await supabase.auth.updateUser({ password: `${PASSWORD}-off` })).error).toBeNull();
    });
  },
  { GOTRUE_SECURITY_UPDATE_PASSWORD_REQUIRE_CURRENT_PASSWORD: "false" },
);
