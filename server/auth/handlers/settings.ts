// GET /settings (for tools and dashboards) and the answers of the features this service does not
// offer (OAuth, SAML), in GoTrue's codes.
import type { FastifyInstance } from "fastify";
import type { AuthContext } from "../context.ts";
import { AuthError, ErrorCode } from "../errors.ts";

const PROVIDERS = [
  "anonymous_users",
  "apple",
  "azure",
  "bitbucket",
  "discord",
  "facebook",
  "figma",
  "github",
  "gitlab",
  "google",
  "keycloak",
  "kakao",
  "linkedin_oidc",
  "notion",
  "slack_oidc",
  "spotify",
  "twitch",
  "twitter",
  "workos",
  "zoom",
];

export default async function settings(app: FastifyInstance, { ctx: _ctx }: { ctx: AuthContext }) {
  app.get("/settings", async () => ({
    external: {
      ...Object.fromEntries(PROVIDERS.map((p) => [p, false])),
      email: true,
      phone: app.config.phoneEnabled,
    },
    disable_signup: false,
    mailer_autoconfirm: app.config.mailerAutoconfirm,
    phone_autoconfirm: app.config.sms.autoconfirm,
    // GoTrue names its SMS provider here; ours is the Send SMS hook, or none (the dev mailbox).
    sms_provider: app.config.sms.hook ? "hook" : "",
    saml_enabled: false,
    passkeys_enabled: false,
  }));

  app.get("/authorize", async (request) => {
    const provider = (request.query as { provider?: string }).provider ?? "";
    throw new AuthError(
      400,
      ErrorCode.validation_failed,
      `Unsupported provider: ${provider}`.trim(),
    );
  });
  app.post("/sso", async () => {
    throw new AuthError(404, ErrorCode.saml_provider_disabled, "SAML 2.0 is disabled");
  });
}
