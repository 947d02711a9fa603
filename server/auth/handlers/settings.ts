// GET /settings: for tools, dashboards and the site's sign-in page, which providers are on.
import type { FastifyInstance } from "fastify";
import type { AuthContext } from "../context.ts";
import { KNOWN_PROVIDERS } from "../external/known-providers.ts";

export default async function settings(app: FastifyInstance, { ctx: _ctx }: { ctx: AuthContext }) {
  const { config } = app;
  app.get("/settings", async () => ({
    external: {
      ...Object.fromEntries([...KNOWN_PROVIDERS].map((p) => [p, p in config.external])),
      anonymous_users: config.anonymousEnabled,
      email: config.emailEnabled,
      phone: config.phoneEnabled,
    },
    disable_signup: config.signupDisabled,
    mailer_autoconfirm: config.mailerAutoconfirm,
    phone_autoconfirm: config.sms.autoconfirm,
    // GoTrue names its SMS provider here; ours is the Send SMS hook, or none (the dev mailbox).
    sms_provider: config.sms.hook ? "hook" : "",
    saml_enabled: config.saml !== undefined,
    saml_private_key_next_configured: false,
    passkeys_enabled: config.passkeys.enabled,
    // Beyond GoTrue's answer: the rest of what a client may want to know before it asks.
    password_min_length: config.passwordMinLength,
    mfa: {
      max_enrolled_factors: config.mfa.maxFactors,
      totp: { enroll_enabled: config.mfa.totpEnroll, verify_enabled: config.mfa.totpVerify },
      phone: { enroll_enabled: config.mfa.phoneEnroll, verify_enabled: config.mfa.phoneVerify },
      web_authn: {
        enroll_enabled: config.mfa.webauthnEnroll,
        verify_enabled: config.mfa.webauthnVerify,
      },
    },
    rate_limits: {
      email_sent: config.emailsPerHour,
      token_refresh: config.authRateLimits.token,
      verify: config.authRateLimits.verify,
      otp: config.authRateLimits.otp,
      anonymous_users: config.authRateLimits.anonymous,
      mfa_challenge_and_verify: config.authRateLimits.mfa,
    },
  }));
}
