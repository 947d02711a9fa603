// Claims on the rows of an outbox table (mail.outbox, public.webhook_deliveries): one row per
// claim, each with its own token and lease. A lane claims the next due row with FOR UPDATE SKIP
// LOCKED and writes a fresh claim_token and a lease (locked_until); every write that ends a claim
// names the token, so a worker whose claim was taken over changes nothing. A token still set on
// an expired lease means its worker died holding it, or could not record the outcome before the
// lease ran out (the database out of its reach). The tables share the columns id, created_at,
// attempts, next_attempt_at, locked_until, claim_token, failed_at, last_error and their own "done"
// column. Rows done or failed are deleted once they are old (expire).
import type { Queryable } from "../db/database.ts";
import { deliveries, type QueueName } from "../metrics/metrics.ts";
import { inBatches } from "../platform/retention.ts";

export type Claimed<R> = R & {
  id: string;
  attempts: number;
  claim_token: string;
  /**
   * The claim this one replaced had expired unreleased: its worker died holding it, or could not
   * record the outcome in time (its send may have completed).
   */
  expired_claim: boolean;
};

export type Release =
  /** Not sent through no fault of the row (stopping, peer down): due now, attempt not counted. */
  | { kind: "unsent"; error?: string }
  /** Refused for now: due again after delayMs; failed for good when giveUp. */
  | { kind: "retry"; error: string; delayMs: number; giveUp: boolean }
  /** Refused for good. */
  | { kind: "failed"; error: string };

type OutboxTable = {
  /** The table, schema-qualified (a constant of the code, never input). */
  table: string;
  /** The queue's name in the metrics. */
  queue: QueueName;
  /** The column a delivery sets (sent_at, delivered_at). */
  done: string;
  /** A column that keeps the peer's last answer (an HTTP status), written on every outcome. */
  status?: string;
  /**
   * A table joined to each due row (alias `j`, the row's alias `q`): only rows with a match are
   * claimed, and `columns` of it come back with the claim (e.g. a webhook endpoint's URL).
   */
  join?: { sql: string; columns: string[] };
};

export type Claims<R> = {
  /** The queue's name in the metrics. */
  readonly queue: QueueName;
  /** Claims the next due row for leaseMs, or returns undefined when none is due. */
  next(db: Queryable, leaseMs: number): Promise<Claimed<R> | undefined>;
  /** Extends the lease; false when the claim is no longer this worker's. */
  renew(db: Queryable, claim: Claimed<R>, leaseMs: number): Promise<boolean>;
  /** Records the delivery; false when the claim was taken over before it could be recorded. */
  done(db: Queryable, claim: Claimed<R>, status?: number): Promise<boolean>;
  /** Ends the claim without a delivery, as `release` says. */
  release(db: Queryable, claim: Claimed<R>, release: Release, status?: number): Promise<void>;
  /**
   * Deletes up to `limit` rows created more than `days` days ago that are done or failed (rows
   * still waiting are kept, however old); how many.
   */
  expire(db: Queryable, days: number, limit: number): Promise<number>;
  /** The rows not yet delivered nor failed, by state, and the age of the oldest of them. */
  backlog(db: Queryable): Promise<Backlog>;
};

/**
 * Rows waiting: due (for a lane to claim), scheduled (a later attempt) and sending (a lease held);
 * the oldest one's age in seconds (0 when none waits).
 */
export type Backlog = { due: number; scheduled: number; sending: number; oldest_seconds: number };

const secs = (ms: number) => ms / 1000;

/** The claim statements of one outbox table. */
export function outboxClaims<R>(t: OutboxTable): Claims<R> {
  const joined = t.join
    ? {
        from: ` ${t.join.sql}`,
        columns: t.join.columns.map((c) => `, j.${c}`).join(""),
        returned: t.join.columns.map((c) => `, due.${c}`).join(""),
      }
    : { from: "", columns: "", returned: "" };
  const lock = t.join ? " OF q" : "";
  const claimSql = `UPDATE ${t.table} o
     SET claim_token = gen_random_uuid(), attempts = o.attempts + 1,
         locked_until = now() + make_interval(secs => $1)
     FROM (SELECT q.id, q.claim_token IS NOT NULL AS expired_claim${joined.columns}
           FROM ${t.table} q${joined.from}
           WHERE q.${t.done} IS NULL AND q.failed_at IS NULL AND q.next_attempt_at <= now()
             AND (q.locked_until IS NULL OR q.locked_until < now())
           ORDER BY q.next_attempt_at LIMIT 1
           FOR UPDATE${lock} SKIP LOCKED) due
     WHERE o.id = due.id
     RETURNING o.*, due.expired_claim${joined.returned}`;
  const renewSql = `UPDATE ${t.table} SET locked_until = now() + make_interval(secs => $3)
     WHERE id = $1 AND claim_token = $2 RETURNING id`;
  const status = t.status ? `, ${t.status} = $3` : "";
  const doneSql = `UPDATE ${t.table} SET ${t.done} = now(), locked_until = NULL, claim_token = NULL,
       last_error = NULL${status}
     WHERE id = $1 AND claim_token = $2 RETURNING id`;
  const releaseSql = `UPDATE ${t.table} SET locked_until = NULL, claim_token = NULL,
       attempts = attempts - CASE WHEN $3::boolean THEN 1 ELSE 0 END,
       last_error = COALESCE($4, last_error),
       next_attempt_at = now() + make_interval(secs => $5),
       failed_at = CASE WHEN $6::boolean THEN now() END${t.status ? `, ${t.status} = COALESCE($7, ${t.status})` : ""}
     WHERE id = $1 AND claim_token = $2 RETURNING id`;
  const expireSql = `DELETE FROM ${t.table} WHERE id = ANY (ARRAY(
       SELECT id FROM ${t.table}
       WHERE created_at < now() - make_interval(days => $1)
         AND (${t.done} IS NOT NULL OR failed_at IS NOT NULL)
       ORDER BY created_at LIMIT $2 FOR UPDATE SKIP LOCKED))
     RETURNING id`;
  // Through the index of waiting rows (next_attempt_at WHERE not done nor failed): as cheap as the
  // queue is short, whatever the table's history. Only the rows a lane may claim (a webhook of a
  // disabled endpoint waits until it is enabled again, and is not late meanwhile).
  const backlogSql = `SELECT /* whole table: the partial index of waiting rows, read whole */
       count(*) FILTER (WHERE q.locked_until > now())::int AS sending,
       count(*) FILTER (WHERE (q.locked_until IS NULL OR q.locked_until <= now())
                          AND q.next_attempt_at <= now())::int AS due,
       count(*) FILTER (WHERE (q.locked_until IS NULL OR q.locked_until <= now())
                          AND q.next_attempt_at > now())::int AS scheduled,
       COALESCE(EXTRACT(EPOCH FROM now() - min(q.created_at)), 0)::float8 AS oldest_seconds
     FROM ${t.table} q${joined.from} WHERE q.${t.done} IS NULL AND q.failed_at IS NULL`;
  const withStatus = (params: unknown[], value: number | undefined) =>
    t.status ? [...params, value ?? null] : params;

  return {
    queue: t.queue,
    async next(db, leaseMs) {
      const [row] = await db.query<Claimed<R>>(claimSql, [secs(leaseMs)]);
      return row;
    },
    async renew(db, claim, leaseMs) {
      const rows = await db.query(renewSql, [claim.id, claim.claim_token, secs(leaseMs)]);
      return rows.length === 1;
    },
    async done(db, claim, value) {
      const rows = await db.query(doneSql, withStatus([claim.id, claim.claim_token], value));
      if (rows.length === 1)
        db.afterCommit(() => deliveries.inc({ queue: t.queue, outcome: "delivered" }));
      return rows.length === 1;
    },
    async expire(db, days, limit) {
      return (await db.query(expireSql, [days, limit])).length;
    },
    async backlog(db) {
      const [row] = await db.query<Backlog>(backlogSql);
      return row!;
    },
    async release(db, claim, release, value) {
      const delayMs = release.kind === "retry" ? release.delayMs : 0;
      const failed = release.kind === "failed" || (release.kind === "retry" && release.giveUp);
      const rows = await db.query(
        releaseSql,
        withStatus(
          [
            claim.id,
            claim.claim_token,
            release.kind === "unsent",
            release.error ?? null,
            secs(delayMs),
            failed,
          ],
          value,
        ),
      );
      // Counted once recorded, as a delivery is: not when the claim was taken over first (its
      // new holder counts its own attempt) nor when the statement fails.
      if (rows.length === 1 && release.kind !== "unsent")
        db.afterCommit(() =>
          deliveries.inc({ queue: t.queue, outcome: failed ? "failed" : "retry" }),
        );
    },
  };
}

/** Days a row sent or failed is kept (the privacy policy says so). */
export const KEEP_DAYS = 30;

/**
 * Deletes a table's rows sent or failed KEEP_DAYS ago, a batch at a time: they are copies of
 * personal data (an email, a lead's event) that served their purpose. How many.
 */
export function expireDone<R>(db: Queryable, claims: Claims<R>): Promise<number> {
  return inBatches((limit) => claims.expire(db, KEEP_DAYS, limit));
}
