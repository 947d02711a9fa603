// The OAuth server's token endpoint (GoTrue's oauthserver/handlers.go OAuthToken): the
// authorization_code grant (PKCE verified, the code used once) and the refresh_token grant
// (rotation, by the client whose session it is), for an authenticated client
// (oauth-server/client-auth.ts); then userinfo (what the granted scopes show of the person) and
// revocation (RFC 7009, ours: decision 0060).
import type { FastifyInstance, FastifyRequest } from "fastify";
import { acceptFormBodies } from "../form-bodies.ts";
import { authenticate } from "../authenticate.ts";
import { auditUser } from "../audit.ts";
import type { AuthContext } from "../context.ts";
import { AuthError, OAuthError } from "../errors.ts";
import {
  isExpired,
  lockByCode,
  markUsed,
  verifierMatches,
} from "../models/oauth-authorizations.ts";
import type { OAuthClientRow } from "../models/oauth-clients.ts";
import { accessToken, findSession, OAUTH_CODE_METHOD, startSession } from "../models/sessions.ts";
import { findUserById, isBanned } from "../models/users.ts";
import { authenticateClient } from "../oauth-server/client-auth.ts";
import { requireOAuthServer } from "../oauth-server/enabled.ts";
import { idTokenClaims, parseScopes, userinfoClaims } from "../oauth-server/scopes.ts";
import { readBody } from "../request.ts";
import { RefreshTokens } from "../models/refresh-tokens.ts";
import { refreshSession } from "../refresh-grant.ts";
import { isUuid } from "../../platform/uuid.ts";

const invalidGrant = (description: string) => new OAuthError("invalid_grant", description);

/** A body field as text ("" when absent or not text). */
const field = (body: Record<string, unknown>, name: string) =>
  typeof body[name] === "string" ? (body[name] as string) : "";

export default async function oauthToken(app: FastifyInstance, { ctx }: { ctx: AuthContext }) {
  const { db } = app;
  const enabled = requireOAuthServer(app);
  // OAuth clients post forms (RFC 6749 §4.1.3); GoTrue also reads JSON.
  acceptFormBodies(app);

  app.post("/oauth/token", { onRequest: enabled }, async (request) => {
    const body = readBody(request);
    const grant = field(body, "grant_type");
    const client = await authenticateClient(db, request, body);
    if (!grant) throw new OAuthError("invalid_request", "grant_type is required");
    if (!client.grant_types.includes(grant))
      throw new OAuthError(
        "unsupported_grant_type",
        `Client is not allowed to use grant type: ${grant}`,
      );
    await ctx.limits.take("token", request);
    if (grant === "authorization_code") return codeGrant(request, client, body);
    if (grant === "refresh_token") return refreshGrant(request, client, body);
    throw new OAuthError("unsupported_grant_type", `Unsupported grant type: ${grant}`);
  });

  async function codeGrant(
    request: FastifyRequest,
    client: OAuthClientRow,
    body: Record<string, unknown>,
  ) {
    const code = field(body, "code");
    if (!code)
      throw new OAuthError("invalid_request", "code is required for authorization_code grant");
    const outcome = await db.transaction(async (tx) => {
      const row = await lockByCode(tx, code);
      if (!row) return invalidGrant("Invalid authorization code");
      if (row.status === "used") {
        // The code came back: it may have been stolen. The session it started ends (OAuth 2.1
        // §4.1.2; GoTrue deletes the code and only refuses it: decision 0060).
        if (row.session_id)
          await tx.query("DELETE FROM auth.sessions WHERE id = $1", [row.session_id]);
        return invalidGrant("Invalid authorization code");
      }
      if (isExpired(row)) return invalidGrant("Authorization code has expired");
      if (row.client_id !== client.id)
        return invalidGrant("Authorization code was not issued for this client");
      const resource = field(body, "resource");
      if (resource && resource !== row.resource)
        return invalidGrant("Authorization code resource does not match the resource parameter");
      const redirectUri = field(body, "redirect_uri");
      if (redirectUri && redirectUri !== row.redirect_uri)
        return invalidGrant("Invalid redirect_uri");
      const verifier = field(body, "code_verifier");
      if (!verifier)
        return invalidGrant(
          "PKCE verification failed: code_verifier is required when PKCE challenge is present",
        );
      if (!verifierMatches(row, verifier))
        return invalidGrant("PKCE verification failed: code challenge does not match");
      const user = row.user_id ? await findUserById(tx, row.user_id) : undefined;
      if (!user) return invalidGrant("User not found for authorization code");
      if (isBanned(user)) return new OAuthError("access_denied", "User is banned");
      const granted = { id: client.id, scopes: row.scope };
      const started = startSession(tx, ctx, user, OAUTH_CODE_METHOD, request, granted);
      await started.stored;
      await markUsed(tx, row.id, started.session.id);
      return { row, user, started };
    });
    if (outcome instanceof OAuthError) throw outcome;
    const { row, user, started } = outcome;
    const scopes = parseScopes(row.scope);
    // An ID token for the openid scope, signed with the asymmetric signing key (GoTrue signs
    // none with an HS256 secret; without such a key there is no ID token).
    const idToken =
      scopes.includes("openid") && ctx.tokens.signsIdTokens
        ? await ctx.tokens.signIdToken({
            sub: user.id,
            aud: client.id,
            auth_time: Math.floor(new Date(started.session.created_at).getTime() / 1000),
            client_id: client.id,
            ...(row.nonce ? { nonce: row.nonce } : {}),
            ...idTokenClaims(user, scopes),
          })
        : undefined;
    return {
      access_token: accessToken(ctx.tokens, user, started.session).token,
      token_type: "bearer",
      expires_in: ctx.tokens.expSeconds,
      refresh_token: started.refreshToken,
      ...(idToken ? { id_token: idToken } : {}),
    };
  }

  async function refreshGrant(
    request: FastifyRequest,
    client: OAuthClientRow,
    body: Record<string, unknown>,
  ) {
    const presented = field(body, "refresh_token");
    if (!presented)
      throw new OAuthError("invalid_request", "refresh_token is required for refresh_token grant");
    const { user, session, refreshToken } = await refreshSession(
      db,
      ctx,
      request,
      presented,
      client.id,
    );
    return {
      access_token: accessToken(ctx.tokens, user, session).token,
      token_type: "bearer",
      expires_in: ctx.tokens.expSeconds,
      refresh_token: refreshToken,
    };
  }

  // OpenID Connect's userinfo: the person behind the access token, as far as the session's
  // scopes show them (a user's own session, without scopes, shows only `sub`).
  app.get("/oauth/userinfo", { onRequest: enabled }, async (request) => {
    const { user, session } = await authenticate(db, ctx.tokens, request);
    return userinfoClaims(user, parseScopes(session.scopes));
  });

  /**
   * RFC 7009 revocation: a refresh or access token of one of the client's sessions ends that
   * session (both kinds of token with it). Anything else (unknown, expired, another client's)
   * changes nothing and answers 200 all the same, as the RFC asks.
   */
  app.post("/oauth/revoke", { onRequest: enabled }, async (request, reply) => {
    const body = readBody(request);
    const client = await authenticateClient(db, request, body);
    const token = field(body, "token");
    if (!token) throw new OAuthError("invalid_request", "token is required");
    const sessionId = await sessionOfToken(token);
    if (sessionId) {
      const session = await findSession(db, sessionId);
      if (session && session.oauth_client_id === client.id) {
        await db.transaction(async (tx) => {
          await tx.query("DELETE FROM auth.sessions WHERE id = $1", [session.id]);
          const user = await findUserById(tx, session.user_id);
          if (user)
            await auditUser(tx, request, user, "token_revoked", {
              oauth_client_id: client.id,
              action: "revoke_token",
            });
        });
      }
    }
    return reply.code(200).send({});
  });

  /** The session a presented refresh or access token belongs to, if it is one of ours. */
  async function sessionOfToken(token: string): Promise<string | undefined> {
    if (RefreshTokens.wellFormed(token)) {
      const found = await ctx.refreshTokens.find(db, token).catch((err: unknown) => {
        if (err instanceof AuthError) return undefined;
        throw err;
      });
      return found?.sessionId;
    }
    const check = await ctx.tokens.verify(token);
    const sid = check.ok ? check.claims.session_id : undefined;
    return isUuid(sid) ? sid : undefined;
  }
}
