// GET /settings and the API version header every answer carries; GoTrue's switches (sign-ups,
// email accounts, anonymous sign-ins, password length) answer GoTrue's codes and show in settings.
import { expect, it } from "vitest";
import { describeAuthSuite } from "../../../tests/support/auth-suite.ts";
import { PASSWORD, uniqueEmail } from "../../../tests/support/auth.ts";

describeAuthSuite("auth: settings and health", ({ auth, client, server }) => {
  it("serves settings and health, with the API version on every answer", async () => {
    const settings = await auth("/settings");
    expect(settings.headers.get("x-supabase-api-version")).toBe("2024-01-01");
    expect(await settings.json()).toMatchObject({
      external: { email: true, phone: false },
      disable_signup: false,
      mailer_autoconfirm: false,
      saml_enabled: false,
    });
  });

  it("answers GoTrue's saml_provider_disabled for single sign-on while SAML is off", async () => {
    const { error } = await client().auth.signInWithSSO({ domain: "acme.example" });
    expect(error).toMatchObject({ status: 404, code: "saml_provider_disabled" });
    for (const [method, path] of [
      ["GET", "/sso/saml/metadata"],
      ["POST", "/sso/saml/acs"],
    ] as const) {
      const res = await fetch(`${server.url}/auth/v1${path}`, { method });
      expect(res.status).toBe(404);
      expect(await res.json()).toMatchObject({
        error_code: "saml_provider_disabled",
        msg: "SAML 2.0 is disabled",
      });
    }
    // The admin SSO API works either way, as GoTrue's.
    const list = await auth("/admin/sso/providers", {
      headers: { apikey: server.serviceRoleKey, authorization: `Bearer ${server.serviceRoleKey}` },
    });
    expect(list.status).toBe(200);
  });
});

describeAuthSuite(
  "auth: switched off",
  ({ auth, client, server }) => {
    it("shows every switch and limit in settings", async () => {
      expect(await (await auth("/settings")).json()).toMatchObject({
        external: { email: false, phone: false, anonymous_users: false },
        disable_signup: true,
        password_min_length: 12,
        mfa: { totp: { enroll_enabled: true, verify_enabled: true } },
        rate_limits: { otp: 30, verify: 30, token_refresh: 150, anonymous_users: 30 },
      });
    });

    it("answers GoTrue's codes for what is off, and changes nothing", async () => {
      const email = uniqueEmail("off");
      const supabase = client();
      expect((await supabase.auth.signUp({ email, password: PASSWORD })).error).toMatchObject({
        status: 422,
        code: "signup_disabled",
      });
      expect((await supabase.auth.signInAnonymously()).error).toMatchObject({
        status: 422,
        code: "anonymous_provider_disabled",
      });
      expect(
        (await supabase.auth.signInWithPassword({ email, password: PASSWORD })).error,
      ).toMatchObject({ status: 422, code: "email_provider_disabled" });
      expect((await supabase.auth.signInWithOtp({ email })).error).toMatchObject({
        status: 422,
        code: "email_provider_disabled",
      });
      expect((await supabase.auth.resetPasswordForEmail(email)).error).toMatchObject({
        status: 400,
        code: "email_provider_disabled",
      });
      // The admin API still creates accounts, and the password policy is the configured one.
      const admin = server.admin().auth.admin;
      const created = await admin.createUser({ email, email_confirm: true });
      expect(created.error).toBeNull();
      const weak = await admin.updateUserById(created.data.user!.id, { password: "eleven-char" });
      expect(weak.error).toMatchObject({ code: "weak_password" });
      expect(weak.error?.message).toBe("Password should be at least 12 characters.");
    });
  },
  {
    GOTRUE_DISABLE_SIGNUP: "true",
    GOTRUE_EXTERNAL_EMAIL_ENABLED: "false",
    GOTRUE_PASSWORD_MIN_LENGTH: "12",
  },
);
