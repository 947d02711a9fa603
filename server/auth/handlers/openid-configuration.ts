// OpenID discovery and OAuth authorization server metadata (GoTrue's WellKnownOpenID): one
// document for both, naming our endpoints under the issuer (this server's /auth/v1). The OAuth
// document answers only while the OAuth server is on; the OpenID one always, as GoTrue's.
import type { FastifyInstance } from "fastify";
import { requireOAuthServer } from "../oauth-server/enabled.ts";
import { SUPPORTED_SCOPES } from "../oauth-server/scopes.ts";

/** As GoTrue: caches may keep the document ten minutes. */
const CACHE_CONTROL = "public, max-age=600";

export default async function openidConfiguration(app: FastifyInstance) {
  const { config } = app;

  function metadata() {
    const issuer = app.tokens.issuer.replace(/\/+$/, "");
    return {
      issuer: app.tokens.issuer,
      authorization_endpoint: `${issuer}/oauth/authorize`,
      token_endpoint: `${issuer}/oauth/token`,
      jwks_uri: `${issuer}/.well-known/jwks.json`,
      userinfo_endpoint: `${issuer}/oauth/userinfo`,
      // Ours beyond GoTrue's (decision 0060): RFC 7009 revocation.
      revocation_endpoint: `${issuer}/oauth/revoke`,
      ...(config.oauthServer.enabled && config.oauthServer.allowDynamicRegistration
        ? { registration_endpoint: `${issuer}/oauth/clients/register` }
        : {}),
      response_types_supported: ["code"],
      response_modes_supported: ["query"],
      grant_types_supported: ["authorization_code", "refresh_token"],
      subject_types_supported: ["public"],
      // ID tokens are signed by the asymmetric signing key only (GOTRUE_JWT_KEYS).
      id_token_signing_alg_values_supported: ["RS256", "ES256"],
      token_endpoint_auth_methods_supported: ["client_secret_basic", "client_secret_post", "none"],
      revocation_endpoint_auth_methods_supported: [
        "client_secret_basic",
        "client_secret_post",
        "none",
      ],
      code_challenge_methods_supported: ["S256"],
      scopes_supported: SUPPORTED_SCOPES,
      claims_supported: [
        "sub",
        "aud",
        "iss",
        "exp",
        "iat",
        "auth_time",
        "nonce",
        "email",
        "email_verified",
        "phone_number",
        "phone_number_verified",
        "name",
        "picture",
        "preferred_username",
        "updated_at",
      ],
    };
  }

  app.get("/.well-known/openid-configuration", async (_request, reply) => {
    reply.header("cache-control", CACHE_CONTROL);
    return metadata();
  });
  app.get(
    "/.well-known/oauth-authorization-server",
    { onRequest: requireOAuthServer(app) },
    async (_request, reply) => {
      reply.header("cache-control", CACHE_CONTROL);
      return metadata();
    },
  );
}
