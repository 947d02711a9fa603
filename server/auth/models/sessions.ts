// Sessions: starting one (with its first refresh token), finding and ending them, raising one to
// aal2 with a verified factor and lowering it when the factor goes (the session's aal and amr are
// written only here), and what a session hands the client (an access token with Supabase's
// claims, GoTrue's AccessTokenResponse).
import crypto from "node:crypto";
import type { FastifyRequest } from "fastify";
import { auditInsert, auditParams } from "../../audit/audit-log.ts";
import type { Queryable } from "../../db/database.ts";
import type { TokenService } from "../../security/tokens.ts";
import { amrMethodOf, type FactorRow } from "./factors.ts";
import { userActor } from "../audit.ts";
import { firstTokenStatement, type RefreshTokens } from "./refresh-tokens.ts";
import { serializeUser, type UserRow } from "./users.ts";
import {
  LISTINGS_SELECT,
  listingsOf,
  listingsOfRows,
  type ListingRow,
  type UserListings,
} from "./user-json.ts";

type AmrEntry = { method: string; timestamp: number };
export type SessionRow = {
  id: string;
  user_id: string;
  aal: string;
  amr: AmrEntry[];
  created_at: Date;
  /** The OAuth client whose code started the session (../oauth-server), and what it may read. */
  oauth_client_id?: string | null;
  scopes?: string | null;
};

/** The access token of a user's session: Supabase's claims, minted by the token service. */
export function accessToken(tokens: TokenService, user: UserRow, session: SessionRow) {
  return tokens.mintAccessToken({
    sub: user.id,
    aud: user.aud,
    email: user.email ?? "",
    phone: user.phone ?? "",
    app_metadata: user.raw_app_meta_data,
    user_metadata: {
      ...user.raw_user_meta_data,
      ...(user.email_confirmed_at ? { email_verified: true } : {}),
    },
    role: user.role,
    aal: session.aal,
    amr: session.amr,
    session_id: session.id,
    is_anonymous: user.is_anonymous,
    // A session an OAuth client started: GoTrue names the client and the granted scopes.
    ...(session.oauth_client_id ? { client_id: session.oauth_client_id } : {}),
    ...(session.scopes ? { scope: session.scopes } : {}),
  });
}

/** GoTrue's AccessTokenResponse for a new or refreshed session. */
export function sessionResponse(
  q: Queryable,
  tokens: TokenService,
  user: UserRow,
  session: SessionRow,
  refreshToken: string,
) {
  return answerWith(tokens, user, session, refreshToken, listingsOf(q, user.id));
}

/**
 * The AccessTokenResponse, its tokens made while the user's identities and factors are read
 * (`listings`), its user once they are.
 */
async function answerWith(
  tokens: TokenService,
  user: UserRow,
  session: SessionRow,
  refreshToken: string,
  listings: Promise<UserListings>,
  access?: AccessToken,
) {
  // Both awaited together: a failure of either fails the answer, and neither is left unobserved.
  const [{ token, exp }, { identities, factors }] = await Promise.all([
    (async () => access ?? accessToken(tokens, user, session))(),
    listings,
  ]);
  return {
    access_token: token,
    token_type: "bearer",
    expires_in: tokens.expSeconds,
    expires_at: exp,
    refresh_token: refreshToken,
    user: serializeUser(user, identities, factors),
  };
}

/** The session's first refresh token, stored by the statement that starts the session. */
const FIRST_TOKEN = firstTokenStatement(5, 6, 12, 1);
/** The sign-in's audit entry ("login", its method as the provider), stored by the same statement. */
const LOGIN_AUDIT = auditInsert(7);

/** The OAuth client a session is started for (by its code), and the scopes it was granted. */
export type SessionClient = { id: string; scopes: string };

/**
 * Starts a session with one statement (one round trip, atomic without a transaction): the session
 * (an OAuth client's, with its client and scopes), its first refresh token, the user's sign-in
 * time and the audit log's entry ("login", with the method as the provider, or the client as
 * GoTrue names it). An identity's own sign-in time moves only when its provider signs the user in
 * (external-identities.ts, as GoTrue): a password or a code never moves it.
 *
 * The session and its refresh token are known at once (the server makes the session's id and
 * time), with `stored`: settled once the statement has run, which nothing may answer before, with
 * the user's identities and factors (the User JSON's listings), which the same statement reads. So
 * the tokens can be made while the database stores the session, and a sign-in costs one statement:
 * right after a password check the CPU caches are cold, and every step taken off the path to the
 * answer there counts (bench:auth).
 */
export function startSession(
  q: Queryable,
  services: { refreshTokens: RefreshTokens },
  user: UserRow,
  method: string,
  request: FastifyRequest,
  client?: SessionClient,
): { session: SessionRow; refreshToken: string; stored: Promise<UserListings> } {
  return storeSession(q, newSession(services, user, method, request, client));
}

type AccessToken = { token: string; exp: number };

/** A session made but not yet stored (newSession): nothing of it has left the process. */
export type NewSession = {
  session: SessionRow;
  refreshToken: string;
  /** The parameters of the statement that stores it. */
  params: unknown[];
  /** Its access token, when made with it (newSignIn). */
  access?: AccessToken;
};

/** A new session, its first refresh token and its statement's parameters: nothing is stored. */
export function newSession(
  services: { refreshTokens: RefreshTokens },
  user: UserRow,
  method: string,
  request: FastifyRequest,
  client?: SessionClient,
): NewSession {
  const refresh = services.refreshTokens.mint();
  const now = new Date();
  const session: SessionRow = {
    id: crypto.randomUUID(),
    user_id: user.id,
    aal: "aal1",
    amr: [{ method, timestamp: Math.floor(now.getTime() / 1000) }],
    created_at: now,
    oauth_client_id: client?.id ?? null,
    scopes: client?.scopes ?? null,
  };
  const traits = client
    ? { provider_type: "oauth_provider_authorization_code", client_id: client.id }
    : { provider: method };
  const params = [
    user.id,
    JSON.stringify(session.amr),
    (request.headers["user-agent"] ?? "").slice(0, 512),
    request.ip,
    refresh.id,
    refresh.hash,
    ...auditParams(request, userActor(user), "login", traits),
    session.oauth_client_id,
    session.scopes,
    session.id,
    now,
  ];
  return { session, refreshToken: refresh.token, params };
}

/**
 * The statement that stores a new session (storeSession). Each part writes from the parameters
 * alone, none joins another part's rows; the refresh token's reference to its session is checked
 * once all have run.
 */
const STORE_SESSION = `WITH s AS (
       INSERT INTO auth.sessions (id, user_id, amr, user_agent, ip, oauth_client_id, scopes, created_at, updated_at)
       VALUES ($12, $1, $2, $3, $4, $10, $11, $13, $13)
     ), r AS (${FIRST_TOKEN}), u AS (
       UPDATE auth.users SET last_sign_in_at = $13 WHERE id = $1
     ), a AS (${LOGIN_AUDIT})
     ${LISTINGS_SELECT}`;

function storeSession(q: Queryable, { session, refreshToken, params }: NewSession) {
  const stored = q.query<ListingRow>(STORE_SESSION, params);
  return { session, refreshToken, stored: stored.then(listingsOfRows) };
}

/**
 * A new session with both its tokens, for a sign-in that can make them while it waits on something
 * else (a password's check): nothing is stored or sent until signIn is given it.
 */
export function newSignIn(
  services: { tokens: TokenService; refreshTokens: RefreshTokens },
  user: UserRow,
  method: string,
  request: FastifyRequest,
): NewSession {
  const made = newSession(services, user, method, request);
  return { ...made, access: accessToken(services.tokens, user, made.session) };
}

/**
 * Signs the user in: stores a new session (`made` before, or made now) and gives GoTrue's answer
 * with its tokens once it is stored, with the listings its statement read. An access token not
 * made before is made while the session is stored.
 */
export async function signIn(
  q: Queryable,
  services: { tokens: TokenService; refreshTokens: RefreshTokens },
  user: UserRow,
  method: string,
  request: FastifyRequest,
  made: NewSession = newSession(services, user, method, request),
) {
  const { session, refreshToken, stored } = storeSession(q, made);
  const signedIn = { ...user, last_sign_in_at: session.created_at };
  return answerWith(services.tokens, signedIn, session, refreshToken, stored, made.access);
}

/** The amr method of a session an OAuth client started with a code (GoTrue's name). */
export const OAUTH_CODE_METHOD = "oauth_provider/authorization_code";

/** The session with this id, when it exists and (if given) belongs to this user. */
export async function findSession(
  q: Queryable,
  id: string,
  userId?: string,
): Promise<SessionRow | undefined> {
  const [session] =
    userId === undefined
      ? await q.query<SessionRow>("SELECT * FROM auth.sessions WHERE id = $1", [id])
      : await q.query<SessionRow>("SELECT * FROM auth.sessions WHERE id = $1 AND user_id = $2", [
          id,
          userId,
        ]);
  return session;
}

/**
 * Ends sessions (their refresh tokens go with them, and their access tokens are refused from then
 * on): this one (`local`), the user's other ones (`others`) or all of the user's (`global`).
 */
export async function endSessions(
  q: Queryable,
  session: { id: string; user_id: string },
  scope: "local" | "others" | "global",
): Promise<void> {
  if (scope === "local") await q.query("DELETE FROM auth.sessions WHERE id = $1", [session.id]);
  else if (scope === "others")
    await q.query("DELETE FROM auth.sessions WHERE user_id = $1 AND id <> $2", [
      session.user_id,
      session.id,
    ]);
  else await endAllSessions(q, session.user_id);
}

/**
 * Ends one session of the user's, chosen by its id (the account page's "Sign out" on a device):
 * false when the user has no session of that id, whoever else might.
 */
export async function endOwnSession(
  q: Queryable,
  userId: string,
  sessionId: string,
): Promise<boolean> {
  const ended = await q.query<{ id: string }>(
    "DELETE FROM auth.sessions WHERE id = $1 AND user_id = $2 RETURNING id",
    [sessionId, userId],
  );
  return ended.length > 0;
}

/** Ends every session of the user. */
export async function endAllSessions(q: Queryable, userId: string): Promise<void> {
  await q.query("DELETE FROM auth.sessions WHERE user_id = $1", [userId]);
}

/** The amr method of a session raised by a recovery code instead of a factor. */
export const RECOVERY_METHOD = "recovery";

/**
 * The session answered a challenge of the factor (or used a recovery code, `factor` null): raised
 * to aal2 with the factor and its method first in its amr. The user's other sessions still at
 * aal1 end: they were opened without the second factor.
 */
export async function raiseToAal2(
  q: Queryable,
  session: SessionRow,
  factor: FactorRow | null,
): Promise<SessionRow> {
  const method = factor ? amrMethodOf(factor) : RECOVERY_METHOD;
  const amr: AmrEntry[] = [
    { method, timestamp: Math.floor(Date.now() / 1000) },
    ...session.amr.filter((entry) => entry.method !== method),
  ];
  const [raised] = await q.query<SessionRow>(
    `UPDATE auth.sessions SET aal = 'aal2', amr = $2, factor_id = $3, updated_at = now()
     WHERE id = $1 RETURNING *`,
    [session.id, JSON.stringify(amr), factor?.id ?? null],
  );
  await q.query("DELETE FROM auth.sessions WHERE user_id = $1 AND id <> $2 AND aal = 'aal1'", [
    session.user_id,
    session.id,
  ]);
  return raised!;
}

/**
 * The factor is being removed: a session it had raised to aal2 goes back to aal1, and the
 * factor's method leaves its amr.
 */
export async function lowerToAal1(q: Queryable, factor: FactorRow): Promise<void> {
  await q.query(
    `UPDATE auth.sessions SET aal = 'aal1', factor_id = NULL, updated_at = now(),
       amr = coalesce((SELECT jsonb_agg(e.entry ORDER BY e.n) FROM jsonb_array_elements(amr)
         WITH ORDINALITY AS e(entry, n) WHERE e.entry->>'method' <> $2), '[]')
     WHERE factor_id = $1`,
    [factor.id, amrMethodOf(factor)],
  );
}
