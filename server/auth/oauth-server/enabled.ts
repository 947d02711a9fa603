// GoTrue's requireOAuthServerEnabled: every OAuth server route answers 404 feature_disabled
// while GOTRUE_OAUTH_SERVER_ENABLED is off.
import type { FastifyInstance } from "fastify";
import { AuthError, ErrorCode } from "../errors.ts";

export function requireOAuthServer(app: FastifyInstance) {
  return async () => {
    if (!app.config.oauthServer.enabled)
      throw new AuthError(404, ErrorCode.feature_disabled, "OAuth server is disabled");
  };
}
