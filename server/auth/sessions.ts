// Sessions and the access tokens minted for them (HS256 JWTs with Supabase's claims).
import type { FastifyRequest } from "fastify";
import { jwtVerify, type JWTPayload } from "jose";
import type { Queryable } from "../db/database.ts";
import { isUuid } from "../platform/uuid.ts";
import { bearerToken } from "../security/api-jwt.ts";
import { signHs256 } from "../security/jwt-sign.ts";
import { AuthError, ErrorCode } from "./errors.ts";
import type { RefreshTokens } from "./refresh-tokens.ts";
import {
  findUserById,
  identitiesOf,
  isBanned,
  serializeUser,
  type IdentityRow,
  type UserRow,
} from "./users.ts";

export type AmrEntry = { method: string; timestamp: number };
export type SessionRow = {
  id: string;
  user_id: string;
  aal: string;
  amr: AmrEntry[];
  created_at: Date;
};

export type TokenSettings = { secret: Uint8Array; issuer: string; expSeconds: number };

export function signAccessToken(settings: TokenSettings, user: UserRow, session: SessionRow) {
  const iat = Math.floor(Date.now() / 1000);
  const exp = iat + settings.expSeconds;
  const token = signHs256(
    {
      iss: settings.issuer,
      sub: user.id,
      aud: user.aud,
      exp,
      iat,
      email: user.email,
      phone: "",
      app_metadata: user.raw_app_meta_data,
      user_metadata: {
        ...user.raw_user_meta_data,
        ...(user.email_confirmed_at ? { email_verified: true } : {}),
      },
      role: user.role,
      aal: session.aal,
      amr: session.amr,
      session_id: session.id,
      is_anonymous: false,
    },
    settings.secret,
  );
  return { token, iat, exp };
}

/** GoTrue's AccessTokenResponse for a new or refreshed session. */
export async function sessionResponse(
  q: Queryable,
  settings: TokenSettings,
  user: UserRow,
  session: SessionRow,
  refreshToken: string,
  identities?: IdentityRow[],
) {
  const { token, exp } = signAccessToken(settings, user, session);
  return {
    access_token: token,
    token_type: "bearer",
    expires_in: settings.expSeconds,
    expires_at: exp,
    refresh_token: refreshToken,
    user: serializeUser(user, identities ?? (await identitiesOf(q, user.id))),
  };
}

/**
 * Signs the user in with one statement (one round trip, atomic without a transaction): the session,
 * its first refresh token and the sign-in time. Right after a password check the CPU caches are
 * cold, so every statement saved there counts (bench:auth).
 */
export async function signIn(
  q: Queryable,
  settings: TokenSettings,
  refreshTokens: RefreshTokens,
  user: UserRow,
  method: string,
  request: FastifyRequest,
  /** The user's identities when the caller already has them (saves a query). */
  identities?: IdentityRow[],
) {
  const refresh = refreshTokens.mint();
  const amr: AmrEntry[] = [{ method, timestamp: Math.floor(Date.now() / 1000) }];
  const [session] = await q.query<SessionRow>(
    `WITH s AS (
       INSERT INTO auth.sessions (user_id, amr, user_agent, ip) VALUES ($1, $2, $3, $4) RETURNING *
     ), r AS (
       INSERT INTO auth.refresh_tokens (id, token_hash, session_id, user_id) SELECT $5, $6, s.id, s.user_id FROM s
     ), u AS (
       UPDATE auth.users SET last_sign_in_at = s.created_at FROM s WHERE auth.users.id = s.user_id
     ), i AS (
       UPDATE auth.identities SET last_sign_in_at = s.created_at FROM s WHERE auth.identities.user_id = s.user_id
     )
     SELECT * FROM s`,
    [
      user.id,
      JSON.stringify(amr),
      (request.headers["user-agent"] ?? "").slice(0, 512),
      request.ip,
      refresh.id,
      refresh.hash,
    ],
  );
  return sessionResponse(
    q,
    settings,
    { ...user, last_sign_in_at: session!.created_at },
    session!,
    refresh.token,
    identities,
  );
}

export type Authenticated = { user: UserRow; session: SessionRow; accessToken: string };

/**
 * GoTrue's requireAuthentication: a bearer user JWT, signed by us, unexpired, whose session still
 * exists (a signed-out session's tokens are refused) and whose user still exists.
 */
export async function authenticate(
  q: Queryable,
  settings: TokenSettings,
  request: FastifyRequest,
): Promise<Authenticated> {
  const token = bearerToken(request.headers.authorization);
  if (!token)
    throw new AuthError(
      401,
      ErrorCode.no_authorization,
      "This endpoint requires a valid Bearer token",
    );
  let claims: JWTPayload;
  try {
    ({ payload: claims } = await jwtVerify(token, settings.secret, {
      algorithms: ["HS256"],
      issuer: settings.issuer,
    }));
  } catch (err) {
    const reason =
      (err as { code?: string }).code === "ERR_JWT_EXPIRED"
        ? "token has expired"
        : "unable to parse or verify signature";
    throw new AuthError(403, ErrorCode.bad_jwt, `invalid JWT: ${reason}`);
  }
  const { sub, session_id: sessionId } = claims;
  if (!sub) throw new AuthError(403, ErrorCode.bad_jwt, "invalid claim: missing sub claim");
  // Signed by us, yet not ours in shape (a key that leaked, a token minted by hand): the claims
  // the lookups use must be UUIDs before they reach the database.
  if (!isUuid(sub))
    throw new AuthError(403, ErrorCode.bad_jwt, "invalid claim: sub claim must be a UUID");
  if (sessionId === undefined || sessionId === null || sessionId === "")
    throw new AuthError(
      403,
      ErrorCode.session_not_found,
      "Session from session_id claim in JWT does not exist",
    );
  if (!isUuid(sessionId))
    throw new AuthError(403, ErrorCode.bad_jwt, "invalid claim: session_id claim must be a UUID");
  const [session] = await q.query<SessionRow>(
    "SELECT * FROM auth.sessions WHERE id = $1 AND user_id = $2",
    [sessionId, sub],
  );
  if (!session)
    throw new AuthError(
      403,
      ErrorCode.session_not_found,
      "Session from session_id claim in JWT does not exist",
    );
  const user = await findUserById(q, sub);
  if (!user)
    throw new AuthError(403, ErrorCode.user_not_found, "User from sub claim in JWT does not exist");
  if (isBanned(user)) throw new AuthError(403, ErrorCode.user_banned, "User is banned");
  return { user, session, accessToken: token };
}
