// One-time tokens: the links and codes sent by email or to a phone (confirmation, recovery, magic
// link, email change, phone change, and the others GoTrue keeps). As in GoTrue, a link carries
// token_hash = sha224(address + code), where the address is the email or the phone number the
// code went to; we store only sha256(token_hash), so the database alone opens nothing. One live
// token per user and purpose; using it deletes it. A code typed wrong WRONG_TRIES times for its
// address or number dies (a wrong code names no token, so the tries count on every live token of
// the types tried that went there).
import crypto from "node:crypto";
import type { Queryable } from "../../db/database.ts";
import { WRONG_TRIES } from "./wrong-codes.ts";

export type TokenType =
  | "confirmation"
  | "recovery"
  | "magiclink"
  | "invite"
  | "email_change_new"
  | "email_change_current"
  | "phone_change"
  | "reauthentication";
export type OneTimeToken = {
  id: string;
  user_id: string;
  token_type: TokenType;
  relates_to: string;
  flow_state_id: string | null;
};

/** Email links and codes stay valid for an hour (Supabase's hosted default)... */
const ONE_TIME_TOKEN_TTL_SECONDS = 3600;
/**
 * ...but an invitation for a week: the person invited may read it days later, and its link is
 * sent to an address an admin chose, never one a visitor typed.
 */
export const INVITE_TTL_SECONDS = 7 * 86_400;
const TTL_OF: Partial<Record<TokenType, number>> = { invite: INVITE_TTL_SECONDS };
export const PKCE_PREFIX = "pkce_";

const tokenHashOf = (sentTo: string, code: string) =>
  crypto
    .createHash("sha224")
    .update(sentTo + code)
    .digest("hex");
const stored = (tokenHash: string) => crypto.createHash("sha256").update(tokenHash).digest("hex");

/** A code of `length` random digits. */
export const randomCode = (length: number) =>
  Array.from({ length }, () => crypto.randomInt(0, 10)).join("");

/** Creates (or replaces) the user's token for this purpose; returns the code and the link token. */
export async function createOneTimeToken(
  q: Queryable,
  opts: {
    userId: string;
    type: TokenType;
    /** Where the code goes: an email address or a phone number (E.164 digits). */
    email?: string;
    phone?: string;
    flowStateId?: string;
    ttlSeconds?: number;
    length?: number;
  },
): Promise<{ code: string; linkToken: string }> {
  const sentTo = opts.email ?? opts.phone ?? "";
  const code = randomCode(opts.length ?? 6);
  const tokenHash = tokenHashOf(sentTo, code);
  await q.query(
    `INSERT INTO auth.one_time_tokens (user_id, token_type, token_hash, relates_to, flow_state_id, expires_at)
     VALUES ($1, $2, $3, $4, $5, now() + make_interval(secs => $6))
     ON CONFLICT (user_id, token_type) DO UPDATE SET token_hash = EXCLUDED.token_hash, relates_to = EXCLUDED.relates_to,
       flow_state_id = EXCLUDED.flow_state_id, created_at = now(), expires_at = EXCLUDED.expires_at,
       failed_attempts = 0`,
    [
      opts.userId,
      opts.type,
      stored(tokenHash),
      sentTo,
      opts.flowStateId ?? null,
      opts.ttlSeconds ?? TTL_OF[opts.type] ?? ONE_TIME_TOKEN_TTL_SECONDS,
    ],
  );
  return { code, linkToken: (opts.flowStateId ? PKCE_PREFIX : "") + tokenHash };
}

/** A user's live token for one purpose as stored: what putBackToken restores. */
export type StoredToken = {
  token_hash: string;
  relates_to: string;
  flow_state_id: string | null;
  created_at: string;
  expires_at: string;
  failed_attempts: number;
};

/** The user's live token for this purpose, if any (its times as text, to the microsecond). */
export async function liveToken(
  q: Queryable,
  userId: string,
  type: TokenType,
): Promise<StoredToken | undefined> {
  const [row] = await q.query<StoredToken>(
    `SELECT token_hash, relates_to, flow_state_id, created_at::text, expires_at::text, failed_attempts
     FROM auth.one_time_tokens WHERE user_id = $1 AND token_type = $2`,
    [userId, type],
  );
  return row;
}

/**
 * Undoes createOneTimeToken when its code could not be sent: the token it replaced (`previous`,
 * from liveToken) is live again, or none when it replaced none. A token made since is left alone.
 */
export async function putBackToken(
  q: Queryable,
  userId: string,
  type: TokenType,
  linkToken: string,
  previous: StoredToken | undefined,
): Promise<void> {
  const hash = stored(
    linkToken.startsWith(PKCE_PREFIX) ? linkToken.slice(PKCE_PREFIX.length) : linkToken,
  );
  if (!previous) {
    await q.query(
      "DELETE FROM auth.one_time_tokens WHERE user_id = $1 AND token_type = $2 AND token_hash = $3",
      [userId, type, hash],
    );
    return;
  }
  await q.query(
    `UPDATE auth.one_time_tokens SET token_hash = $4, relates_to = $5, flow_state_id = $6,
       created_at = $7::timestamptz, expires_at = $8::timestamptz, failed_attempts = $9
     WHERE user_id = $1 AND token_type = $2 AND token_hash = $3`,
    [
      userId,
      type,
      hash,
      previous.token_hash,
      previous.relates_to,
      previous.flow_state_id,
      previous.created_at,
      previous.expires_at,
      previous.failed_attempts,
    ],
  );
}

/**
 * Uses a token given by its hash (from a link); undefined when unknown, expired, used, or typed
 * wrong too often.
 */
export async function consumeTokenHash(
  q: Queryable,
  tokenHash: string,
  types: TokenType[],
): Promise<OneTimeToken | undefined> {
  const hash = tokenHash.startsWith(PKCE_PREFIX) ? tokenHash.slice(PKCE_PREFIX.length) : tokenHash;
  if (!/^[0-9a-f]{56}$/.test(hash)) return undefined;
  const [row] = await q.query<OneTimeToken & { expired: boolean }>(
    `DELETE FROM auth.one_time_tokens WHERE token_hash = $1 AND token_type = ANY($2::text[])
     RETURNING id, user_id, token_type, relates_to, flow_state_id,
       expires_at < now() OR failed_attempts >= $3 AS expired`,
    [stored(hash), types, WRONG_TRIES],
  );
  return row && !row.expired ? row : undefined;
}

/** Uses a token given by the address or phone it was sent to and its code (what a person types). */
export function consumeCode(
  q: Queryable,
  sentTo: string,
  code: string,
  types: TokenType[],
): Promise<OneTimeToken | undefined> {
  return consumeTokenHash(q, tokenHashOf(sentTo, code), types);
}

/**
 * A wrong code typed for `sentTo` (an address or number): each live token of these types that went
 * there counts it, and those typed wrong WRONG_TRIES times die.
 */
export async function countWrongCode(
  q: Queryable,
  sentTo: string,
  types: TokenType[],
): Promise<void> {
  await q.query(
    `UPDATE auth.one_time_tokens SET failed_attempts = failed_attempts + 1
     WHERE relates_to = $1 AND token_type = ANY($2::text[])`,
    [sentTo, types],
  );
  await q.query(
    `DELETE FROM auth.one_time_tokens
     WHERE relates_to = $1 AND token_type = ANY($2::text[]) AND failed_attempts >= $3`,
    [sentTo, types, WRONG_TRIES],
  );
}

export async function deleteTokens(
  q: Queryable,
  userId: string,
  types: TokenType[],
): Promise<void> {
  await q.query(
    "DELETE FROM auth.one_time_tokens WHERE user_id = $1 AND token_type = ANY($2::text[])",
    [userId, types],
  );
}
