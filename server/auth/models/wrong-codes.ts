// Wrong codes: how many tries a code survives, and how long a second factor stays locked after
// wrong answers in a row. Counted in the database, on the row the code or factor is, so that every
// instance sees the same counts and concurrent wrong answers are each counted.
import type { Queryable } from "../../db/database.ts";

/** A code dies at this many wrong tries; a factor is locked at every multiple of it in a row. */
export const WRONG_TRIES = 5;
/** The first lock; each further one in a row lasts twice the one before, a day at the most. */
const FIRST_LOCK_SECONDS = 300;
const LONGEST_LOCK_SECONDS = 86_400;

/**
 * The rows that lock (their failed_attempts and locked_until columns): a factor, by its id; a
 * user's recovery codes, by the user's id.
 */
const LOCKABLE = {
  factor: { table: "auth.mfa_factors", key: "id" },
  recovery: { table: "auth.mfa_recovery_sets", key: "user_id" },
} as const;
export type Lockable = keyof typeof LOCKABLE;

/** The seconds a lock has left (0 when the row is not locked). */
export function lockedForSeconds(row: { locked_until: Date | string | null }): number {
  if (row.locked_until === null) return 0;
  return Math.max(0, (new Date(row.locked_until).getTime() - Date.now()) / 1000);
}

/** One wrong answer for the row; every WRONG_TRIES-th in a row locks it. */
export async function countWrongAnswer(q: Queryable, kind: Lockable, id: string): Promise<void> {
  await q.query(
    `UPDATE ${LOCKABLE[kind].table} SET failed_attempts = failed_attempts + 1,
       locked_until = CASE WHEN (failed_attempts + 1) % $2 = 0
         THEN now() + make_interval(secs => least($4, $3 * 2 ^ ((failed_attempts + 1) / $2 - 1)))
         ELSE locked_until END
     WHERE ${LOCKABLE[kind].key} = $1`,
    [id, WRONG_TRIES, FIRST_LOCK_SECONDS, LONGEST_LOCK_SECONDS],
  );
}

/** A right answer: the wrong ones in a row start again from none. */
export async function clearWrongAnswers(q: Queryable, kind: Lockable, id: string): Promise<void> {
  await q.query(
    `UPDATE ${LOCKABLE[kind].table} SET failed_attempts = 0, locked_until = NULL
     WHERE ${LOCKABLE[kind].key} = $1 AND failed_attempts > 0`,
    [id],
  );
}
