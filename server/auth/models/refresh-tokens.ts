// Refresh tokens, and the only writer of auth.refresh_tokens: a session's first token, rotation on
// every use, a reuse window for concurrent tabs, and revocation of the whole session when an old
// token comes back later (supabase/auth models/refresh_token.go).
// A token is an HMAC of its row id with the server's key, so the server can hand out the active
// token again without ever storing a token: the row keeps only the token's SHA-256.
import crypto from "node:crypto";
import type { Queryable, Row } from "../../db/database.ts";
import { AuthError, ErrorCode, OAuthError } from "../errors.ts";

/** Supabase's hosted reuse interval: a token revoked less than this ago still works. */
const REUSE_INTERVAL_MS = 10_000;

type TokenRow = {
  id: string;
  session_id: string;
  user_id: string;
  parent_id: string | null;
  revoked: boolean;
  revoked_at: Date | null;
};

/**
 * The INSERT of a new session's first token, for a data-modifying WITH that stores the session
 * too: the token's row id and hash (mint()), the session's id and its user's are the statement's
 * parameters `$id`, `$hash`, `$session` and `$user`. The session and its token are stored by one
 * statement (the token's reference to the session is checked once the statement has run).
 */
export function firstTokenStatement(
  id: number,
  hash: number,
  session: number,
  user: number,
): string {
  return `INSERT INTO auth.refresh_tokens (id, token_hash, session_id, user_id) VALUES ($${id}, $${hash}, $${session}, $${user})`;
}

export class RefreshTokens {
  private readonly key: crypto.KeyObject;

  constructor(key: crypto.KeyObject) {
    this.key = key;
  }

  tokenFor(rowId: string): string {
    return crypto.createHmac("sha256", this.key).update(rowId).digest("base64url");
  }

  private static hash(token: string): string {
    return crypto.createHash("sha256").update(token).digest("hex");
  }

  /** A new token: its row id, the token itself and the hash that is stored. */
  mint(): { id: string; token: string; hash: string } {
    const id = crypto.randomUUIDv7();
    const token = this.tokenFor(id);
    return { id, token, hash: RefreshTokens.hash(token) };
  }

  /**
   * Replaces every live token of a session with one new token (a session whose level changed);
   * returns the token string.
   */
  async replace(q: Queryable, sessionId: string, userId: string): Promise<string> {
    const { id, token, hash } = this.mint();
    // One statement, as a rotation's: the live tokens revoked (the statement's snapshot does not
    // hold the new one), the new one stored.
    await q.query(
      `WITH revoked AS (
         UPDATE auth.refresh_tokens SET revoked = true, revoked_at = now() WHERE session_id = $3 AND NOT revoked
       )
       INSERT INTO auth.refresh_tokens (id, token_hash, session_id, user_id) VALUES ($1, $2, $3, $4)`,
      [id, hash, sessionId, userId],
    );
    return token;
  }

  /**
   * The stored token a client presents, or GoTrue's refusals in its order (token_refresh.go
   * Validate, then the lookup): 400 validation_failed for what cannot be a refresh token, before
   * any lookup; 400 refresh_token_not_found for a well-formed one that is unknown.
   */
  async find(q: Queryable, presented: string): Promise<StoredToken> {
    if (!RefreshTokens.wellFormed(presented))
      throw new AuthError(400, ErrorCode.validation_failed, "Refresh token is not valid");
    // GoTrue's legacy form: well-formed, but never one of ours.
    if (presented.length === 12) throw tokenNotFound();
    const [found] = await q.query<TokenRow>(
      "SELECT * FROM auth.refresh_tokens WHERE token_hash = $1",
      [RefreshTokens.hash(presented)],
    );
    if (!found) throw tokenNotFound();
    return { id: found.id, sessionId: found.session_id, userId: found.user_id };
  }

  /**
   * Whether a token has a refresh token's form, judged as GoTrue judges its own: shorter than 12
   * characters never; exactly 12 only as its legacy form ([a-z0-9]{12}); longer only as a token
   * of the current form, which for us is the base64url of a 32-byte HMAC (tokenFor): 43
   * characters of that alphabet, its last one carrying 4 bits and two zero bits.
   */
  static wellFormed(presented: string): boolean {
    if (presented.length === 12) return /^[a-z0-9]{12}$/.test(presented);
    return (
      presented.length === 43 &&
      Buffer.from(presented, "base64url").toString("base64url") === presented
    );
  }

  /**
   * Exchanges a found refresh token for the next one, inside the caller's transaction. Requests
   * for the same session are serialised by locking the session row. `clientId` is the OAuth
   * client refreshing (null: a user's own client): a session an OAuth client started is
   * refreshed by that client only, and a user's own session by no OAuth client (GoTrue's
   * RefreshTokenGrant).
   */
  async rotate<S extends Row>(
    q: Queryable,
    found: StoredToken,
    clientId: string | null = null,
  ): Promise<Rotation<S>> {
    const [session] = await q.query<{ id: string; oauth_client_id: string | null }>(
      "SELECT id, oauth_client_id FROM auth.sessions WHERE id = $1 FOR UPDATE",
      [found.sessionId],
    );
    // The token went with its session meanwhile (sign-out, reuse elsewhere): GoTrue's answer to a
    // token whose session is gone is the token's not found.
    if (!session) throw tokenNotFound();
    if (session.oauth_client_id !== clientId)
      throw new OAuthError(
        "invalid_client",
        session.oauth_client_id === null
          ? "Client authentication not allowed for non-OAuth session"
          : clientId === null
            ? "Client authentication required for OAuth session"
            : "Client does not match the session's OAuth client",
      );
    // Read again under the lock: a concurrent request may have rotated it meanwhile.
    const [token] = await q.query<TokenRow>("SELECT * FROM auth.refresh_tokens WHERE id = $1", [
      found.id,
    ]);
    if (!token) throw tokenNotFound();

    if (!token.revoked) {
      // One statement: the token revoked, its child stored, the session's refresh time written
      // and its row read back.
      const child = this.mint();
      const [refreshed] = await q.query<S>(
        `WITH revoked AS (
           UPDATE auth.refresh_tokens SET revoked = true, revoked_at = now() WHERE id = $1
         ), child AS (
           INSERT INTO auth.refresh_tokens (id, token_hash, session_id, user_id, parent_id)
           VALUES ($2, $3, $4, $5, $1)
         )
         UPDATE auth.sessions SET refreshed_at = now(), updated_at = now() WHERE id = $4 RETURNING *`,
        [token.id, child.id, child.hash, token.session_id, token.user_id],
      );
      return {
        kind: "rotated",
        token: child.token,
        sessionId: token.session_id,
        userId: token.user_id,
        session: refreshed,
      };
    }

    const [active] = await q.query<TokenRow>(
      "SELECT * FROM auth.refresh_tokens WHERE session_id = $1 AND NOT revoked ORDER BY created_at DESC LIMIT 1",
      [token.session_id],
    );
    const recentlyRevoked =
      token.revoked_at !== null &&
      Date.now() - new Date(token.revoked_at).getTime() <= REUSE_INTERVAL_MS;
    if (active && (active.parent_id === token.id || recentlyRevoked)) {
      // A tab that lost the race (or the last response): it gets the session's current token.
      return {
        kind: "rotated",
        token: this.tokenFor(active.id),
        sessionId: token.session_id,
        userId: token.user_id,
      };
    }

    // An old token came back: it may have been stolen. End the whole session (the caller commits
    // this, then answers refresh_token_already_used).
    await q.query("DELETE FROM auth.sessions WHERE id = $1", [token.session_id]);
    return { kind: "reused" };
  }
}

/** A stored token a client presented: its row and its user. */
export type StoredToken = { id: string; sessionId: string; userId: string };

/**
 * A rotation's outcome. A rotated token's `session` is the session's row when the rotation wrote
 * it (a token used for the first time), not when a tab that lost the race is given the current
 * token.
 */
type Rotation<S extends Row> =
  | { kind: "rotated"; token: string; sessionId: string; userId: string; session?: S }
  | { kind: "reused" };

export const tokenNotFound = () =>
  new AuthError(
    400,
    ErrorCode.refresh_token_not_found,
    "Invalid Refresh Token: Refresh Token Not Found",
  );

export const alreadyUsed = () =>
  new AuthError(400, ErrorCode.refresh_token_already_used, "Invalid Refresh Token: Already Used");
