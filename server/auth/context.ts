// What every auth handler shares, built once for the /auth/v1 scope.
import type { FastifyInstance } from "fastify";
import { SecretBox } from "../security/secret-box.ts";
import type { TokenService } from "../security/tokens.ts";
import { redirectProviders, type RedirectProvider } from "./external/providers.ts";
import { RefreshTokens } from "./models/refresh-tokens.ts";
import { authRateLimits, type AuthRateLimits } from "./rate-limits.ts";
import { smsSender, type SmsSender } from "./sms/sms-sender.ts";
import { serviceProvider, type ServiceProvider } from "./sso/service-provider.ts";

export type AuthContext = {
  app: FastifyInstance;
  tokens: TokenService;
  refreshTokens: RefreshTokens;
  /** GoTrue's per-endpoint, per-IP refilling buckets. */
  limits: AuthRateLimits;
  /** Sends codes to phones (the Send SMS hook, or the dev mailbox). */
  sms: SmsSender;
  /** The external providers that sign people in by redirect, by name (GOTRUE_EXTERNAL_*). */
  providers: Map<string, RedirectProvider>;
  /** Seals the providers' tokens a PKCE flow keeps until its code is exchanged. */
  providerTokens: SecretBox;
  /** This service as a SAML service provider (GOTRUE_SAML_*), or undefined while SAML is off. */
  sso: ServiceProvider | undefined;
};

export async function authContext(app: FastifyInstance): Promise<AuthContext> {
  return {
    app,
    tokens: app.tokens,
    refreshTokens: new RefreshTokens(app.keys.derive("refresh-tokens")),
    limits: authRateLimits(app),
    sms: smsSender(app.config),
    providers: redirectProviders(app.config.external),
    providerTokens: new SecretBox(app.keys.derive("provider-tokens")),
    sso: app.config.saml ? await serviceProvider(app.config.saml) : undefined,
  };
}
