// When a code last went to a phone, as a stamp on a row, with at most one code per interval: the
// user's sign-in and change-of-number codes (sms/phone-codes.ts) and a phone factor's challenges
// (handlers/factors.ts). The stamp is claimed before the code goes, read and set under the row's
// lock in one statement, so of requests at the same moment, on any instance, one gets the interval
// and the others are told how long is left; a code that could not go gives the stamp back.
import type { Queryable } from "../../db/database.ts";

/** The stamps claimed this way, by what the code is for. */
const STAMPS = {
  confirmation: { table: "auth.users", column: "confirmation_sent_at" },
  phone_change: { table: "auth.users", column: "phone_change_sent_at" },
  mfa_challenge: { table: "auth.mfa_factors", column: "last_challenged_at" },
} as const;

type StampKind = keyof typeof STAMPS;

/**
 * A claimed stamp: the one it replaced and its own (both as stored, to the microsecond), so that a
 * code that could not go gives it back.
 */
export type ClaimedStamp = { previous: string | null; claimed: string };

/** The interval claimed, or the seconds until the stamp that stands lets another code go. */
type StampClaim = { stamp: ClaimedStamp } | { stamp?: undefined; waitSeconds: number };

/**
 * Claims the interval of a code on the row `id` (undefined: no such row). With `pendingPhone`, it
 * is claimed only while that is still the user's number asked for (a change to another number
 * made meanwhile stands).
 */
export async function claimStamp(
  q: Queryable,
  kind: StampKind,
  id: string,
  seconds: number,
  pendingPhone?: string,
): Promise<StampClaim | undefined> {
  const { table, column } = STAMPS[kind];
  const [row] = await q.query<{ previous: string | null; claimed: string | null; wait: number }>(
    `WITH old AS (SELECT id, ${column} AS previous${pendingPhone === undefined ? "" : ", phone_change"}
       FROM ${table} WHERE id = $1 FOR UPDATE),
     claim AS (UPDATE ${table} t SET ${column} = now() FROM old
       WHERE t.id = old.id AND (old.previous IS NULL OR old.previous <= now() - make_interval(secs => $2))
         ${pendingPhone === undefined ? "" : "AND old.phone_change = $3"}
       RETURNING t.${column}::text AS claimed)
     SELECT old.previous::text AS previous, claim.claimed,
       coalesce(extract(epoch FROM old.previous + make_interval(secs => $2) - clock_timestamp()), 0)::float8 AS wait
     FROM old LEFT JOIN claim ON true`,
    pendingPhone === undefined ? [id, seconds] : [id, seconds, pendingPhone],
  );
  if (!row) return undefined;
  return row.claimed === null
    ? { waitSeconds: Math.max(0, row.wait) }
    : { stamp: { previous: row.previous, claimed: row.claimed } };
}

/** The code of a claimed stamp did not go: the stamp is the one before, unless claimed since. */
export async function giveStampBack(
  q: Queryable,
  kind: StampKind,
  id: string,
  stamp: ClaimedStamp,
): Promise<void> {
  const { table, column } = STAMPS[kind];
  await q.query(
    `UPDATE ${table} SET ${column} = $2::timestamptz WHERE id = $1 AND ${column} = $3::timestamptz`,
    [id, stamp.previous, stamp.claimed],
  );
}
