// The OAuth server's authorization endpoint and the consent behind it (GoTrue's
// oauthserver/authorize.go): GET /oauth/authorize checks the client and its redirect URI, stores
// the request and sends the browser to the site's consent page; the page (auth-js's
// oauth.getAuthorizationDetails, approveAuthorization, denyAuthorization) reads it as the signed-in
// person and answers it, and is handed the client's redirect URI with a code or the refusal.
import type { FastifyInstance, FastifyRequest } from "fastify";
import type { Queryable } from "../../db/database.ts";
import { authenticate } from "../authenticate.ts";
import type { AuthContext } from "../context.ts";
import { AuthError, ErrorCode } from "../errors.ts";
import {
  approve,
  claimForUser,
  createAuthorization,
  deny,
  isExpired,
  lockAuthorization,
  markExpired,
  type OAuthAuthorizationRow,
} from "../models/oauth-authorizations.ts";
import { findClient } from "../models/oauth-clients.ts";
import { activeConsent, grantConsent } from "../models/oauth-consents.ts";
import { requireOAuthServer } from "../oauth-server/enabled.ts";
import { coversScopes, isSupportedScope, parseScopes } from "../oauth-server/scopes.ts";
import { allowedRedirect } from "../redirects.ts";
import { queryParam, readBody } from "../request.ts";
import { isUuid } from "../../platform/uuid.ts";

const invalid = (message: string) => new AuthError(400, ErrorCode.validation_failed, message);
const notFound = () =>
  new AuthError(404, ErrorCode.oauth_authorization_not_found, "authorization not found");

/** The client's redirect URI with these parameters added (GoTrue's build*RedirectURL). */
function withParams(redirectUri: string, params: Record<string, string | null | undefined>) {
  const url = new URL(redirectUri);
  for (const [name, value] of Object.entries(params))
    if (value !== undefined && value !== null && value !== "") url.searchParams.set(name, value);
  return url.toString();
}

const errorRedirect = (
  redirectUri: string,
  error: string,
  description: string,
  state?: string | null,
) => withParams(redirectUri, { error, error_description: description, state });

/**
 * What makes the request unanswerable once the client and its redirect URI are known (sent back
 * to that URI): not `code`, an unknown scope, a `resource` that is not an absolute URI without
 * query or fragment (RFC 8707), no S256 PKCE challenge of 43 to 128 characters.
 */
function requestProblem(p: {
  responseType: string;
  scope: string;
  resource: string | undefined;
  challenge: string | undefined;
  method: string | undefined;
}): string | undefined {
  if (p.responseType !== "code") return "only response_type=code is supported";
  const scopes = parseScopes(p.scope);
  if (scopes.length === 0) return "scope parameter cannot be empty";
  const unknown = scopes.find((scope) => !isSupportedScope(scope));
  if (unknown) return `unsupported scope: ${unknown}`;
  if (p.resource !== undefined) {
    if (!URL.canParse(p.resource)) return "resource must be an absolute URI";
    if (p.resource.includes("#")) return "resource must not include a fragment component";
    if (p.resource.includes("?")) return "resource must not include a query component";
  }
  if (!p.challenge || !p.method)
    return "PKCE flow requires both code_challenge and code_challenge_method";
  // OAuth 2.1 and our decision 0060: S256 only (GoTrue also takes `plain`).
  if (p.method.toLowerCase() !== "s256") return "code_challenge_method must be 'S256'";
  if (p.challenge.length < 43 || p.challenge.length > 128)
    return "code_challenge must be between 43 and 128 characters";
  return undefined;
}

type AuthorizationParams = { Params: { authorizationId: string } };

export default async function oauthAuthorize(app: FastifyInstance, { ctx }: { ctx: AuthContext }) {
  const { db, config } = app;
  const enabled = requireOAuthServer(app);

  app.get("/oauth/authorize", { onRequest: enabled }, async (request, reply) => {
    const param = (name: string) => queryParam(request, name) || undefined;
    const clientId = param("client_id");
    const redirectUri = param("redirect_uri");
    // Until the client and its redirect URI are known, nothing is sent anywhere but back here.
    if (!clientId) throw invalid("client_id is required");
    if (!redirectUri) throw invalid("redirect_uri is required");
    if (!isUuid(clientId))
      throw new AuthError(400, ErrorCode.oauth_client_not_found, "invalid client_id format");
    const client = await findClient(db, clientId);
    if (!client) throw new AuthError(400, ErrorCode.oauth_client_not_found, "invalid client_id");
    // Exactly one of the registered URIs, character for character.
    if (!client.redirect_uris.includes(redirectUri)) throw invalid("invalid redirect_uri");
    const state = param("state");
    const scope = param("scope") ?? config.oauthServer.defaultScope;
    const problem = requestProblem({
      responseType: param("response_type") ?? "code",
      scope,
      resource: param("resource"),
      challenge: param("code_challenge"),
      method: param("code_challenge_method"),
    });
    if (problem)
      return reply.redirect(errorRedirect(redirectUri, "invalid_request", problem, state), 302);
    const authorization = await createAuthorization(db, {
      clientId: client.id,
      redirectUri,
      scope: parseScopes(scope).join(" "),
      state,
      resource: param("resource"),
      codeChallenge: param("code_challenge")!,
      nonce: param("nonce"),
      ttlMs: config.oauthServer.authorizationTtlMs,
    });
    const consent = new URL(config.oauthServer.authorizationPath, config.siteUrl);
    consent.searchParams.set("authorization_id", authorization.authorization_id);
    return reply.redirect(consent.toString(), 302);
  });

  /**
   * GoTrue's validateRequestOrigin: a browser's request must come from the site (or a place
   * redirects may lead), where the consent page is; a request without an Origin is a server's.
   */
  function checkOrigin(request: FastifyRequest) {
    const origin = request.headers.origin;
    if (origin && !allowedRedirect(origin, config)) throw invalid("unauthorized request origin");
  }

  /**
   * The authorization, locked for the caller's transaction, when it is still pending and (once
   * claimed) this person's: an expired one is marked so and, like another person's, not found.
   */
  async function pendingAuthorization(
    tx: Queryable,
    id: string,
    userId: string,
  ): Promise<OAuthAuthorizationRow | AuthError> {
    const row = await lockAuthorization(tx, id);
    if (!row) return notFound();
    if (isExpired(row)) {
      if (row.status === "pending") await markExpired(tx, row.id);
      return notFound();
    }
    if (row.status !== "pending") return invalid("authorization request cannot be processed");
    if (row.user_id !== null && row.user_id !== userId) return notFound();
    return row;
  }

  app.get<AuthorizationParams>(
    "/oauth/authorizations/:authorizationId",
    { onRequest: enabled },
    async (request) => {
      checkOrigin(request);
      const { user } = await authenticate(db, ctx.tokens, request);
      const outcome = await db.transaction(async (tx) => {
        const row = await pendingAuthorization(tx, request.params.authorizationId, user.id);
        if (row instanceof AuthError) return row;
        if (row.user_id === null) {
          await claimForUser(tx, row.id, user.id);
          // Scopes the person already allowed this client: approved without asking again.
          const consent = await activeConsent(tx, user.id, row.client_id);
          if (consent && coversScopes(parseScopes(consent.scopes), parseScopes(row.scope)))
            return { row, code: await approve(tx, row.id) };
        }
        return { row, code: undefined };
      });
      // An expired row's new status is kept (the transaction committed); the answer is the refusal.
      if (outcome instanceof AuthError) throw outcome;
      const { row, code } = outcome;
      if (code) return { redirect_url: withParams(row.redirect_uri, { code, state: row.state }) };
      const client = await findClient(db, row.client_id);
      if (!client) throw notFound();
      return {
        authorization_id: row.authorization_id,
        redirect_uri: row.redirect_uri,
        client: {
          id: client.id,
          ...(client.client_name ? { name: client.client_name } : {}),
          ...(client.client_uri ? { uri: client.client_uri } : {}),
          ...(client.logo_uri ? { logo_uri: client.logo_uri } : {}),
        },
        user: { id: user.id, ...(user.email ? { email: user.email } : {}) },
        scope: row.scope,
      };
    },
  );

  app.post<AuthorizationParams>(
    "/oauth/authorizations/:authorizationId/consent",
    { onRequest: enabled },
    async (request) => {
      checkOrigin(request);
      const { user } = await authenticate(db, ctx.tokens, request);
      const action = readBody(request).action;
      if (action !== "approve" && action !== "deny")
        throw invalid("action must be 'approve' or 'deny'");
      const outcome = await db.transaction(async (tx) => {
        const row = await pendingAuthorization(tx, request.params.authorizationId, user.id);
        if (row instanceof AuthError) return row;
        // Only the person who opened it answers it (GoTrue: another person's is not found).
        if (row.user_id !== user.id) return notFound();
        if (action === "deny") {
          await deny(tx, row.id);
          return errorRedirect(
            row.redirect_uri,
            "access_denied",
            "User denied the request",
            row.state,
          );
        }
        const code = await approve(tx, row.id);
        await grantConsent(tx, user.id, row.client_id, parseScopes(row.scope));
        return withParams(row.redirect_uri, { code, state: row.state });
      });
      if (outcome instanceof AuthError) throw outcome;
      return { redirect_url: outcome };
    },
  );
}
