// OAuth authorization requests (GoTrue's models/oauth_authorization.go), the only writer of
// auth.oauth_authorizations: made by GET /oauth/authorize, claimed by the first signed-in person
// who opens it, approved (a code) or denied, and the code exchanged once. Every change happens
// under the row's lock, so two requests racing over one authorization cannot both win.
import crypto from "node:crypto";
import type { Queryable } from "../../db/database.ts";
import { sameSecret } from "../../security/constant-time.ts";

export type AuthorizationStatus = "pending" | "approved" | "denied" | "expired" | "used";

export type OAuthAuthorizationRow = {
  id: string;
  authorization_id: string;
  client_id: string;
  user_id: string | null;
  redirect_uri: string;
  scope: string;
  state: string | null;
  resource: string | null;
  code_challenge: string;
  code_challenge_method: "s256";
  nonce: string | null;
  status: AuthorizationStatus;
  session_id: string | null;
  created_at: Date;
  expires_at: Date;
  approved_at: Date | null;
};

export type NewAuthorization = {
  clientId: string;
  redirectUri: string;
  scope: string;
  state: string | undefined;
  resource: string | undefined;
  codeChallenge: string;
  nonce: string | undefined;
  ttlMs: number;
};

/** The SHA-256 a code is stored as: the code itself is never stored. */
const codeHash = (code: string) => crypto.createHash("sha256").update(code).digest("hex");

/** An opaque random token: 32 random bytes, base64url. */
const randomToken = () => crypto.randomBytes(32).toString("base64url");

export async function createAuthorization(
  q: Queryable,
  a: NewAuthorization,
): Promise<OAuthAuthorizationRow> {
  const [row] = await q.query<OAuthAuthorizationRow>(
    `INSERT INTO auth.oauth_authorizations (authorization_id, client_id, redirect_uri, scope,
       state, resource, code_challenge, code_challenge_method, nonce, expires_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, 's256', $8, now() + $9 * interval '1 millisecond')
     RETURNING *`,
    [
      randomToken(),
      a.clientId,
      a.redirectUri,
      a.scope,
      a.state ?? null,
      a.resource ?? null,
      a.codeChallenge,
      a.nonce ?? null,
      a.ttlMs,
    ],
  );
  return row!;
}

export const isExpired = (row: { expires_at: Date }) =>
  new Date(row.expires_at).getTime() <= Date.now();

/** The authorization of this id, its row locked until the caller's transaction ends. */
export async function lockAuthorization(
  q: Queryable,
  authorizationId: string,
): Promise<OAuthAuthorizationRow | undefined> {
  const [row] = await q.query<OAuthAuthorizationRow>(
    "SELECT * FROM auth.oauth_authorizations WHERE authorization_id = $1 FOR UPDATE",
    [authorizationId],
  );
  return row;
}

/** A pending authorization found past its time is marked expired (GoTrue's MarkExpired). */
export async function markExpired(q: Queryable, id: string): Promise<void> {
  await q.query("UPDATE auth.oauth_authorizations SET status = 'expired' WHERE id = $1", [id]);
}

/** The first signed-in person to open the authorization: it is theirs from then on. */
export async function claimForUser(q: Queryable, id: string, userId: string): Promise<void> {
  await q.query("UPDATE auth.oauth_authorizations SET user_id = $2 WHERE id = $1", [id, userId]);
}

/** Approves it: a new code, returned here only (the row keeps its hash). */
export async function approve(q: Queryable, id: string): Promise<string> {
  const code = randomToken();
  await q.query(
    `UPDATE auth.oauth_authorizations
     SET status = 'approved', approved_at = now(), authorization_code_hash = $2 WHERE id = $1`,
    [id, codeHash(code)],
  );
  return code;
}

export async function deny(q: Queryable, id: string): Promise<void> {
  await q.query("UPDATE auth.oauth_authorizations SET status = 'denied' WHERE id = $1", [id]);
}

/** The authorization a code was issued by (approved, or already used), its row locked. */
export async function lockByCode(
  q: Queryable,
  code: string,
): Promise<OAuthAuthorizationRow | undefined> {
  const [row] = await q.query<OAuthAuthorizationRow>(
    `SELECT * FROM auth.oauth_authorizations
     WHERE authorization_code_hash = $1 AND status IN ('approved', 'used') FOR UPDATE`,
    [codeHash(code)],
  );
  return row;
}

/** The code was exchanged for the session's tokens: it is spent, and remembers the session. */
export async function markUsed(q: Queryable, id: string, sessionId: string): Promise<void> {
  await q.query(
    "UPDATE auth.oauth_authorizations SET status = 'used', session_id = $2 WHERE id = $1",
    [id, sessionId],
  );
}

/** Whether a PKCE verifier answers the S256 challenge (RFC 7636 §4.6). */
export function verifierMatches(row: OAuthAuthorizationRow, verifier: string): boolean {
  return sameSecret(
    row.code_challenge,
    crypto.createHash("sha256").update(verifier).digest("base64url"),
  );
}

/**
 * Deletes at most `limit` authorizations that expired a day before `at` (the hourly cleanup):
 * a used one's session lives on without it.
 */
export async function deleteStaleAuthorizations(
  q: Queryable,
  limit: number,
  at: Date,
): Promise<number> {
  const deleted = await q.query<{ id: string }>(
    `DELETE FROM auth.oauth_authorizations WHERE id IN (
       SELECT id FROM auth.oauth_authorizations WHERE expires_at < $1::timestamptz - interval '1 day'
       LIMIT $2)
     RETURNING id`,
    [at, limit],
  );
  return deleted.length;
}
