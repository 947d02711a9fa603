// GoTrue's requireAuthentication (the user and session behind a request's bearer token) and
// requireAdminCredentials (a service-role token, for the admin API).
import type { FastifyRequest } from "fastify";
import type { Queryable } from "../db/database.ts";
import { isUuid } from "../platform/uuid.ts";
import {
  bearerToken,
  type Claims,
  type TokenCheck,
  type TokenService,
} from "../security/tokens.ts";
import { AuthError, ErrorCode } from "./errors.ts";
import { findSession, type SessionRow } from "./models/sessions.ts";
import { findUserById, isBanned, type UserRow } from "./models/users.ts";

type Authenticated = {
  user: UserRow;
  session: SessionRow;
  accessToken: string;
  claims: Claims;
};

/**
 * A bearer token the token service accepts (a user's only when this deployment issued it:
 * tokens.ts), whose user still exists (looked at first, as GoTrue does) and is not banned, and
 * whose session still exists (a signed-out session's tokens are refused).
 */
export async function authenticate(
  q: Queryable,
  tokens: TokenService,
  request: FastifyRequest,
): Promise<Authenticated> {
  // An API key (anon, service role) is ours but names no user: GoTrue's "missing sub claim".
  const { token, claims } = await verifiedBearer(tokens, request);
  const { sub, session_id: sessionId } = claims;
  if (!sub) throw new AuthError(403, ErrorCode.bad_jwt, "invalid claim: missing sub claim");
  // Signed by us, yet not ours in shape (a key that leaked, a token minted by hand): the claims
  // the lookups use must be UUIDs before they reach the database.
  if (!isUuid(sub))
    throw new AuthError(400, ErrorCode.bad_jwt, "invalid claim: sub claim must be a UUID");
  const named = sessionId !== undefined && sessionId !== null && sessionId !== "";
  // Both rows are read at once; the user is judged first.
  const [user, session] = await Promise.all([
    findUserById(q, sub),
    named && isUuid(sessionId) ? findSession(q, sessionId, sub) : undefined,
  ]);
  if (!user)
    throw new AuthError(403, ErrorCode.user_not_found, "User from sub claim in JWT does not exist");
  if (named && !isUuid(sessionId))
    throw new AuthError(403, ErrorCode.bad_jwt, "invalid claim: session_id claim must be a UUID");
  if (!session)
    throw new AuthError(
      403,
      ErrorCode.session_not_found,
      "Session from session_id claim in JWT does not exist",
    );
  if (isBanned(user)) throw new AuthError(403, ErrorCode.user_banned, "User is banned");
  return { user, session, accessToken: token, claims };
}

/** GoTrue's JWT_AUD: the audience of every user's token. */
const DEFAULT_AUDIENCE = "authenticated";

/**
 * Whether the token is of the request's audience, as GoTrue's UserGet and DeleteIdentity judge it:
 * the request's audience is its X-JWT-AUD header, else the token's own `aud` (unless an admin
 * role's token), else the default; the token's first `aud` must be it.
 */
export function ofRequestAudience(request: FastifyRequest, claims: Claims): boolean {
  const audiences = claims.aud === undefined ? [] : [claims.aud].flat();
  const header = request.headers["x-jwt-aud"];
  const asked = typeof header === "string" && header !== "" ? header : undefined;
  const own = ADMIN_ROLES.has(claims.role!) ? undefined : audiences[0] || undefined;
  return audiences.length > 0 && audiences[0] === (asked ?? own ?? DEFAULT_AUDIENCE);
}

/** Roles whose tokens may use the admin API (GoTrue's default JWT_ADMIN_ROLES). */
const ADMIN_ROLES = new Set(["service_role", "supabase_admin"]);

/** The signed-in user of an MFA route (factors, recovery codes): anonymous users have none. */
export async function authenticateForMfa(
  q: Queryable,
  tokens: TokenService,
  request: FastifyRequest,
) {
  const found = await authenticate(q, tokens, request);
  if (found.user.is_anonymous)
    throw new AuthError(
      403,
      ErrorCode.no_authorization,
      "Anonymous user not allowed to perform these actions",
    );
  return found;
}

/**
 * GoTrue's requireAdminCredentials: a bearer token the token service accepts whose role is an
 * admin role (the service-role key). Any other valid token, a user's included, is 403 not_admin.
 */
export async function authenticateAdmin(
  tokens: TokenService,
  request: FastifyRequest,
): Promise<Claims> {
  const { claims } = await verifiedBearer(tokens, request);
  if (!ADMIN_ROLES.has(claims.role!))
    throw new AuthError(403, ErrorCode.not_admin, "User not allowed");
  return claims;
}

/**
 * Why a bearer token is refused, after "invalid JWT: ". A token not valid yet is named as GoTrue's
 * JWT library names it (golang-jwt's ErrTokenInvalidClaims wrapping ErrTokenNotValidYet).
 */
const REFUSALS: Record<Exclude<TokenCheck, { ok: true }>["reason"], string> = {
  missing: "unable to parse or verify signature",
  invalid: "unable to parse or verify signature",
  issuer: "unable to parse or verify signature",
  malformed:
    "unable to parse or verify signature, token is malformed: token contains an invalid number of segments",
  expired: "token has expired",
  not_yet_valid:
    "unable to parse or verify signature, token has invalid claims: token is not valid yet",
};

/** The request's bearer token and its claims, when the token service accepts it. */
async function verifiedBearer(
  tokens: TokenService,
  request: FastifyRequest,
): Promise<{ token: string; claims: Claims }> {
  const token = bearerToken(request.headers.authorization);
  if (!token)
    throw new AuthError(
      401,
      ErrorCode.no_authorization,
      "This endpoint requires a valid Bearer token",
    );
  const check = await tokens.verify(token);
  if (!check.ok) {
    throw new AuthError(403, ErrorCode.bad_jwt, `invalid JWT: ${REFUSALS[check.reason]}`);
  }
  return { token, claims: check.claims };
}
