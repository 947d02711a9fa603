// Recovery codes: ten one-time codes a person keeps on paper for the day their phone is lost, each
// a second factor once. Shown once when made (a new set replaces the old whole); stored as an
// HMAC-SHA256 under a key derived from the server's secret (a code has 50 random bits, so a fast
// keyed hash suffices: the database alone opens nothing). A code is used by one conditional
// UPDATE, so the same code sent twice at once works once, on any instance; wrong ones lock the
// set as wrong codes lock a factor (wrong-codes.ts).
import crypto from "node:crypto";
import type { Queryable } from "../../db/database.ts";
import { clearWrongAnswers, countWrongAnswer, lockedForSeconds } from "./wrong-codes.ts";

export const RECOVERY_CODE_COUNT = 10;
/** Letters and digits nobody misreads (no 0/o, 1/l/i): 32 of them, 5 bits a character. */
const ALPHABET = "abcdefghjkmnpqrstuvwxyz23456789";
const CODE_LENGTH = 10;

/** A code as shown: two groups of five ("k7m2p-x9d4q"). */
function newCode(): string {
  const chars = Array.from(
    { length: CODE_LENGTH },
    () => ALPHABET[crypto.randomInt(ALPHABET.length)],
  );
  return `${chars.slice(0, 5).join("")}-${chars.slice(5).join("")}`;
}

/** A code as typed, read as written: case, spaces and dashes do not count. */
const normalised = (code: string) => code.toLowerCase().replace(/[\s-]/g, "");

const hashOf = (key: crypto.KeyObject, code: string) =>
  crypto.createHmac("sha256", key).update(normalised(code)).digest("hex");

/** Makes the user's codes anew (the old ones stop working); the codes, to be shown once. */
export async function replaceRecoveryCodes(
  q: Queryable,
  key: crypto.KeyObject,
  userId: string,
): Promise<{ codes: string[]; created_at: Date }> {
  const codes = Array.from({ length: RECOVERY_CODE_COUNT }, newCode);
  await q.query("DELETE FROM auth.mfa_recovery_sets WHERE user_id = $1", [userId]);
  const [set] = await q.query<{ created_at: Date }>(
    "INSERT INTO auth.mfa_recovery_sets (user_id) VALUES ($1) RETURNING created_at",
    [userId],
  );
  await q.query(
    `INSERT INTO auth.mfa_recovery_codes (user_id, code_hash)
     SELECT $1, unnest($2::text[])`,
    [userId, codes.map((code) => hashOf(key, code))],
  );
  return { codes, created_at: set!.created_at };
}

/** How many of the user's codes are left unused, and when they were made (none: undefined). */
export async function recoveryCodesLeft(
  q: Queryable,
  userId: string,
): Promise<{ remaining: number; created_at: Date } | undefined> {
  const [row] = await q.query<{ remaining: number; created_at: Date }>(
    `SELECT s.created_at, (SELECT count(*)::int FROM auth.mfa_recovery_codes c
       WHERE c.user_id = s.user_id AND c.used_at IS NULL) AS remaining
     FROM auth.mfa_recovery_sets s WHERE s.user_id = $1`,
    [userId],
  );
  return row;
}

export type RecoveryUse = { used: true } | { wrong: true } | { lockedFor: number };

/**
 * Uses one of the user's codes, under the lock of their set: a wrong one is counted (and may lock
 * the set), a right one is spent and clears the count.
 */
export async function useRecoveryCode(
  q: Queryable,
  key: crypto.KeyObject,
  userId: string,
  code: string,
): Promise<RecoveryUse> {
  const [set] = await q.query<{ locked_until: Date | null }>(
    "SELECT locked_until FROM auth.mfa_recovery_sets WHERE user_id = $1 FOR UPDATE",
    [userId],
  );
  if (!set) return { wrong: true };
  const lockedFor = lockedForSeconds(set);
  if (lockedFor > 0) return { lockedFor };
  const used = await q.query(
    `UPDATE auth.mfa_recovery_codes SET used_at = now()
     WHERE user_id = $1 AND code_hash = $2 AND used_at IS NULL RETURNING 1`,
    [userId, hashOf(key, code)],
  );
  if (used.length === 0) {
    await countWrongAnswer(q, "recovery", userId);
    return { wrong: true };
  }
  await clearWrongAnswers(q, "recovery", userId);
  return { used: true };
}

export async function deleteRecoveryCodes(q: Queryable, userId: string): Promise<void> {
  await q.query("DELETE FROM auth.mfa_recovery_sets WHERE user_id = $1", [userId]);
}
