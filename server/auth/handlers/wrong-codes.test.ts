// Wrong codes, every kind: a code typed wrong five times dies (the right one is then refused as an
// expired one), whatever it is (an emailed sign-in code, an email-change code, a reauthentication
// code by email or text, a texted sign-in or change-of-number code, a phone factor's challenge),
// and a factor answered wrong five times in a row is locked for a while (429 with the seconds
// left), an authenticator app's included. The counts live in the database.
import { afterAll, expect, it } from "vitest";
import { describeAuthSuiteEachDatabase } from "../../../tests/support/auth-suite.ts";
import { codeIn, PASSWORD, uniqueEmail, uniquePhone } from "../../../tests/support/auth.ts";
import { startSmsHook } from "../../../tests/support/sms-hook.ts";
import { stepAt, totpCode } from "../../../tests/support/totp.ts";

const hook = await startSmsHook();
afterAll(() => hook.stop());

/** `n` codes of the same length that are not `code`. */
const wrongCodes = (code: string, n = 5) =>
  Array.from({ length: n }, (_, i) =>
    String((Number(code) + i + 1) % 10 ** code.length).padStart(code.length, "0"),
  );

const sessionOf = (token: string) =>
  (JSON.parse(Buffer.from(token.split(".")[1]!, "base64url").toString()) as { session_id: string })
    .session_id;

describeAuthSuiteEachDatabase(
  "auth: wrong codes",
  ({ ctx, client, confirmedUser, emailTo, emailChangeMails }) => {
    it("lets an emailed sign-in code die after five wrong tries", async () => {
      const { email } = await confirmedUser("wrong-email-code");
      const supabase = client();
      expect((await supabase.auth.signInWithOtp({ email })).error).toBeNull();
      const code = codeIn(await emailTo(email, "Your Revwise sign-in link"));
      for (const wrong of wrongCodes(code))
        expect(
          (await supabase.auth.verifyOtp({ email, token: wrong, type: "email" })).error,
        ).toMatchObject({ status: 403, code: "otp_expired" });
      const right = await supabase.auth.verifyOtp({ email, token: code, type: "email" });
      expect(right.error).toMatchObject({ status: 403, code: "otp_expired" });
    });

    it("keeps a code that was typed wrong fewer than five times", async () => {
      const { email } = await confirmedUser("wrong-email-code-few");
      const supabase = client();
      await supabase.auth.signInWithOtp({ email });
      const code = codeIn(await emailTo(email, "Your Revwise sign-in link"));
      for (const wrong of wrongCodes(code, 4))
        await supabase.auth.verifyOtp({ email, token: wrong, type: "email" });
      expect(
        (await supabase.auth.verifyOtp({ email, token: code, type: "email" })).error,
      ).toBeNull();
    });

    it("lets an email-change code die after five wrong tries", async () => {
      const { email, supabase } = await confirmedUser("wrong-change-code");
      const next = uniqueEmail("wrong-change-next");
      expect((await supabase.auth.updateUser({ email: next })).error).toBeNull();
      const code = codeIn((await emailChangeMails(email, next)).toNew);
      for (const wrong of wrongCodes(code))
        await supabase.auth.verifyOtp({ email: next, token: wrong, type: "email_change" });
      const right = await supabase.auth.verifyOtp({
        email: next,
        token: code,
        type: "email_change",
      });
      expect(right.error).toMatchObject({ status: 403, code: "otp_expired" });
    });

    it("lets a reauthentication code die after five wrong tries", async () => {
      const { email, supabase, session } = await confirmedUser("wrong-reauth");
      await ctx.db.query(
        "UPDATE auth.sessions SET created_at = now() - interval '25 hours' WHERE id = $1",
        [sessionOf(session.access_token)],
      );
      expect((await supabase.auth.reauthenticate()).error).toBeNull();
      const code = codeIn(await emailTo(email, "Your Revwise confirmation code"));
      const password = `${PASSWORD}-next`;
      for (const wrong of wrongCodes(code))
        expect(
          (await supabase.auth.updateUser({ password, nonce: wrong, current_password: PASSWORD }))
            .error,
        ).toMatchObject({
          status: 422,
          code: "reauthentication_not_valid",
        });
      expect(
        (await supabase.auth.updateUser({ password, nonce: code, current_password: PASSWORD }))
          .error,
      ).toMatchObject({
        status: 422,
        code: "reauthentication_not_valid",
      });
    });

    it("lets texted codes die after five wrong tries: sign-in, change of number, reauthentication", async () => {
      const phone = uniquePhone();
      const supabase = client();
      await supabase.auth.signInWithOtp({ phone: `+${phone}` });
      const code = await hook.codeFor(phone);
      for (const wrong of wrongCodes(code))
        await supabase.auth.verifyOtp({ phone, token: wrong, type: "sms" });
      expect(
        (await supabase.auth.verifyOtp({ phone, token: code, type: "sms" })).error,
      ).toMatchObject({ status: 403, code: "otp_expired" });

      // A code that was not typed wrong still signs in.
      await ctx.db.query("UPDATE auth.users SET confirmation_sent_at = NULL WHERE phone = $1", [
        phone,
      ]);
      await supabase.auth.signInWithOtp({ phone: `+${phone}` });
      const fresh = await hook.codeFor(phone, 2);
      expect(
        (await supabase.auth.verifyOtp({ phone, token: fresh, type: "sms" })).error,
      ).toBeNull();

      const next = uniquePhone();
      expect((await supabase.auth.updateUser({ phone: `+${next}` })).error).toBeNull();
      const change = await hook.codeFor(next);
      for (const wrong of wrongCodes(change))
        await supabase.auth.verifyOtp({ phone: next, token: wrong, type: "phone_change" });
      expect(
        (await supabase.auth.verifyOtp({ phone: next, token: change, type: "phone_change" })).error,
      ).toMatchObject({ status: 403, code: "otp_expired" });

      const { data } = await supabase.auth.getSession();
      await ctx.db.query(
        "UPDATE auth.sessions SET created_at = now() - interval '25 hours' WHERE id = $1",
        [sessionOf(data.session!.access_token)],
      );
      expect((await supabase.auth.reauthenticate()).error).toBeNull();
      const nonce = await hook.codeFor(phone, 3);
      const password = `${PASSWORD}-texted`;
      for (const wrong of wrongCodes(nonce))
        await supabase.auth.updateUser({ password, nonce: wrong, current_password: PASSWORD });
      expect(
        (await supabase.auth.updateUser({ password, nonce, current_password: PASSWORD })).error,
      ).toMatchObject({
        status: 422,
        code: "reauthentication_not_valid",
      });
    });

    it("locks an authenticator app for a while after five wrong codes in a row; its challenge dies", async () => {
      const { supabase } = await confirmedUser("wrong-totp");
      const { data } = await supabase.auth.mfa.enroll({ factorType: "totp" });
      const { id: factorId, totp } = data as { id: string; totp: { secret: string } };
      const right = () => totpCode(totp.secret, stepAt(Date.now()));
      const challenge = (await supabase.auth.mfa.challenge({ factorId })).data!;
      // Codes of no step near now: wrong whatever the clock does meanwhile.
      const farStep = stepAt(Date.now()) + 1000;
      for (let i = 0; i < 5; i++)
        expect(
          (
            await supabase.auth.mfa.verify({
              factorId,
              challengeId: challenge.id,
              code: totpCode(totp.secret, farStep + i),
            })
          ).error,
        ).toMatchObject({ status: 422, code: "mfa_verification_failed" });
      const locked = await supabase.auth.mfa.challengeAndVerify({ factorId, code: right() });
      expect(locked.error).toMatchObject({ status: 429, code: "over_request_rate_limit" });
      expect(locked.error?.message).toMatch(
        /^For security purposes, you can only request this after (29\d|300) seconds\.$/,
      );

      // Once the lock has passed, the challenge answered wrong five times is dead; a new one works.
      await ctx.db.query("UPDATE auth.mfa_factors SET locked_until = now() WHERE id = $1", [
        factorId,
      ]);
      const dead = await supabase.auth.mfa.verify({
        factorId,
        challengeId: challenge.id,
        code: right(),
      });
      expect(dead.error).toMatchObject({ status: 422, code: "mfa_challenge_expired" });
      expect(
        (await supabase.auth.mfa.challengeAndVerify({ factorId, code: right() })).error,
      ).toBeNull();
    });

    it("lets a phone factor's texted code die after five wrong tries, and locks the factor", async () => {
      const { supabase } = await confirmedUser("wrong-phone-factor");
      const phone = uniquePhone();
      const factorId = (await supabase.auth.mfa.enroll({ factorType: "phone", phone: `+${phone}` }))
        .data!.id;
      const challenge = (await supabase.auth.mfa.challenge({ factorId })).data!;
      const code = await hook.codeFor(phone);
      for (const wrong of wrongCodes(code))
        expect(
          (await supabase.auth.mfa.verify({ factorId, challengeId: challenge.id, code: wrong }))
            .error,
        ).toMatchObject({ status: 422, code: "mfa_verification_failed" });
      expect(
        (await supabase.auth.mfa.verify({ factorId, challengeId: challenge.id, code })).error,
      ).toMatchObject({ status: 429, code: "over_request_rate_limit" });
      await ctx.db.query("UPDATE auth.mfa_factors SET locked_until = now() WHERE id = $1", [
        factorId,
      ]);
      expect(
        (await supabase.auth.mfa.verify({ factorId, challengeId: challenge.id, code })).error,
      ).toMatchObject({ status: 422, code: "mfa_challenge_expired" });
    });
  },
  {
    GOTRUE_EXTERNAL_PHONE_ENABLED: "true",
    GOTRUE_MFA_PHONE_ENROLL_ENABLED: "true",
    GOTRUE_MFA_PHONE_VERIFY_ENABLED: "true",
    GOTRUE_SECURITY_UPDATE_PASSWORD_REQUIRE_REAUTHENTICATION: "true",
    ...hook.env,
  },
);
