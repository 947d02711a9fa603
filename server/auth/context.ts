// What every auth handler shares, built once for the /auth/v1 scope.
import type { FastifyInstance, onRequestAsyncHookHandler } from "fastify";
import { LIMITS } from "../platform/rate-limit.ts";
import type { TokenService } from "../security/tokens.ts";
import { RefreshTokens } from "./models/refresh-tokens.ts";
import { smsSender, type SmsSender } from "./sms/sms-sender.ts";

export type AuthContext = {
  app: FastifyInstance;
  tokens: TokenService;
  refreshTokens: RefreshTokens;
  /**
   * One per-IP bucket shared by every request that sends account email (sign-up, recovery,
   * resend, email change), as GoTrue's "Otp" bucket: an onRequest hook for those routes.
   */
  emailRequests: onRequestAsyncHookHandler;
  /** Sends codes to phones (the Send SMS hook, or the dev mailbox). */
  sms: SmsSender;
};

export function authContext(app: FastifyInstance): AuthContext {
  return {
    app,
    tokens: app.tokens,
    refreshTokens: new RefreshTokens(app.keys.derive("refresh-tokens")),
    emailRequests: app.rateLimit(LIMITS.authEmail),
    sms: smsSender(app.config),
  };
}
