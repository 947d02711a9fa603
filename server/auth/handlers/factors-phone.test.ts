// MFA with a phone through supabase-js: enrolment of a number, a challenge texted through a real
// Send SMS hook (sms_type "mfa", its signature verified by the receiver), verify with that code
// (aal2, amr mfa/phone), a wrong code and a used challenge refused, a second code within the
// frequency limit refused, and phone factors off by default.
import { afterAll, expect, it } from "vitest";
import { uniqueIp } from "../../../tests/support/api-server.ts";
import { describeAuthSuite } from "../../../tests/support/auth-suite.ts";
import { PASSWORD, uniquePhone } from "../../../tests/support/auth.ts";
import { startSmsHook } from "../../../tests/support/sms-hook.ts";
import { raiseToAal2 } from "../../../tests/support/team.ts";

const hook = await startSmsHook();
afterAll(() => hook.stop());

const claimsOf = (token: string) =>
  JSON.parse(Buffer.from(token.split(".")[1]!, "base64url").toString()) as {
    aal: string;
    amr: { method: string }[];
  };

describeAuthSuite(
  "auth: MFA (phone)",
  ({ ctx, server, confirmedUser }) => {
    it("enrols a number, texts a code on each challenge, and verifies to aal2", async () => {
      const { supabase } = await confirmedUser("mfa-phone");
      const phone = uniquePhone();
      const enrolled = await supabase.auth.mfa.enroll({
        factorType: "phone",
        phone: `+${phone}`,
        friendlyName: "Work phone",
      });
      expect(enrolled.error).toBeNull();
      const factorId = enrolled.data!.id;
      expect(enrolled.data).toMatchObject({ type: "phone", friendly_name: "Work phone" });

      const challenged = await supabase.auth.mfa.challenge({ factorId });
      expect(challenged.error).toBeNull();
      const texted = await hook.waitFor(phone);
      expect(texted.sms).toMatchObject({
        phone,
        sms_type: "mfa",
        otp: expect.stringMatching(/^\d{6}$/),
      });

      // As long as the code in characters but not in bytes: a wrong code, not a failure.
      const accented = await supabase.auth.mfa.verify({
        factorId,
        challengeId: challenged.data!.id,
        code: `${texted.sms.otp.slice(0, 5)}é`,
      });
      expect(accented.error).toMatchObject({ status: 422, code: "mfa_verification_failed" });
      const wrong = await supabase.auth.mfa.verify({
        factorId,
        challengeId: challenged.data!.id,
        code: texted.sms.otp === "000000" ? "111111" : "000000",
      });
      expect(wrong.error).toMatchObject({ status: 422, code: "mfa_verification_failed" });
      // Within the frequency limit, no second code.
      const again = await supabase.auth.mfa.challenge({ factorId });
      expect(again.error).toMatchObject({ status: 429, code: "over_sms_send_rate_limit" });
      // The whole seconds left, as GoTrue counts them (errors.go: the remainder dropped).
      await ctx.db.query(
        "UPDATE auth.mfa_factors SET last_challenged_at = now() - interval '30.5 seconds' WHERE id = $1",
        [factorId],
      );
      expect((await supabase.auth.mfa.challenge({ factorId })).error?.message).toBe(
        "For security purposes, you can only request this after 29 seconds.",
      );

      const verified = await supabase.auth.mfa.verify({
        factorId,
        challengeId: challenged.data!.id,
        code: texted.sms.otp,
      });
      expect(verified.error).toBeNull();
      const claims = claimsOf(verified.data!.access_token);
      expect(claims.aal).toBe("aal2");
      expect(claims.amr.map((a) => a.method)).toEqual(["mfa/phone", "password"]);
      expect((await supabase.auth.mfa.listFactors()).data?.phone).toEqual([
        expect.objectContaining({ id: factorId, status: "verified", phone }),
      ]);
      const replay = await supabase.auth.mfa.verify({
        factorId,
        challengeId: challenged.data!.id,
        code: texted.sms.otp,
      });
      expect(replay.error).toMatchObject({ status: 422, code: "mfa_ip_address_mismatch" });

      const duplicate = await supabase.auth.mfa.enroll({ factorType: "phone", phone });
      expect(duplicate.error).toMatchObject({ status: 422, code: "mfa_verified_factor_exists" });

      // Removed: the session is aal1 again, and the factor's method leaves its amr.
      expect((await supabase.auth.mfa.unenroll({ factorId })).error).toBeNull();
      const lowered = claimsOf((await supabase.auth.refreshSession()).data.session!.access_token);
      expect([lowered.aal, lowered.amr.map((a) => a.method)]).toEqual(["aal1", ["password"]]);
    });

    it("verifies a factor left unverified before the owner's first one only from an aal2 session", async () => {
      const { email, supabase: owner } = await confirmedUser("mfa-dormant");
      // Someone who knows the password enrols a phone of theirs and has it texted a code.
      const ip = uniqueIp();
      const intruder = server.client({ ip });
      await intruder.auth.signInWithPassword({ email, password: PASSWORD });
      const phone = uniquePhone();
      const dormant = await intruder.auth.mfa.enroll({
        factorType: "phone",
        phone: `+${phone}`,
        friendlyName: "Spare phone",
      });
      const factorId = dormant.data!.id;
      const challenge = await intruder.auth.mfa.challenge({ factorId });
      expect(challenge.error).toBeNull();
      const code = await hook.codeFor(phone);

      // The owner then sets up an authenticator app: their second factor from now on.
      await raiseToAal2(owner);

      // The password alone (aal1) verifies no other factor, nor has one texted.
      const again = server.client({ ip });
      await again.auth.signInWithPassword({ email, password: PASSWORD });
      const verified = await again.auth.mfa.verify({
        factorId,
        challengeId: challenge.data!.id,
        code,
      });
      expect(verified.error).toMatchObject({ status: 403, code: "insufficient_aal" });
      await ctx.db.query("UPDATE auth.mfa_factors SET last_challenged_at = NULL WHERE id = $1", [
        factorId,
      ]);
      expect((await again.auth.mfa.challenge({ factorId })).error).toMatchObject({
        status: 403,
        code: "insufficient_aal",
      });
      expect(hook.messages.filter((m) => m.sms.phone === phone)).toHaveLength(1);
      expect((await again.auth.mfa.getAuthenticatorAssuranceLevel()).data?.currentLevel).toBe(
        "aal1",
      );

      // The owner sees it among their factors and removes it.
      const listed = (await owner.auth.getUser()).data.user?.factors;
      expect(listed).toEqual(
        expect.arrayContaining([expect.objectContaining({ id: factorId, status: "unverified" })]),
      );
      expect((await owner.auth.mfa.unenroll({ factorId })).error).toBeNull();
    });
  },
  {
    GOTRUE_MFA_PHONE_ENROLL_ENABLED: "true",
    GOTRUE_MFA_PHONE_VERIFY_ENABLED: "true",
    GOTRUE_MFA_PHONE_MAX_FREQUENCY: "60",
    ...hook.env,
  },
);

describeAuthSuite("auth: MFA (phone) off", ({ confirmedUser }) => {
  it("answers GoTrue's mfa_phone_enroll_not_enabled by default", async () => {
    const { supabase } = await confirmedUser("mfa-phone-off");
    const refused = await supabase.auth.mfa.enroll({ factorType: "phone", phone: uniquePhone() });
    expect(refused.error).toMatchObject({ status: 422, code: "mfa_phone_enroll_not_enabled" });
  });
});
