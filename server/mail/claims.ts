// Claims on outbox emails: one email per claim, each with its own token and lease. Every write
// that ends a claim names the token, so a worker whose claim was taken over changes nothing.
import type { Queryable } from "../db/database.ts";
import type { OutboxRow } from "./outbox.ts";

export type ClaimedEmail = OutboxRow & {
  claim_token: string;
  /** The claim this one replaced had expired unreleased: its worker died holding it. */
  expired_claim: boolean;
};

const ms = (n: number) => n / 1000;

/** Claims the next due email for leaseMs, or returns undefined when none is due. */
export async function claimNext(db: Queryable, leaseMs: number): Promise<ClaimedEmail | undefined> {
  const [row] = await db.query<ClaimedEmail>(
    `UPDATE mail.outbox o
     SET claim_token = gen_random_uuid(), attempts = o.attempts + 1,
         locked_until = now() + make_interval(secs => $1)
     FROM (SELECT id, claim_token IS NOT NULL AS expired_claim FROM mail.outbox
           WHERE sent_at IS NULL AND failed_at IS NULL AND next_attempt_at <= now()
             AND (locked_until IS NULL OR locked_until < now())
           ORDER BY next_attempt_at LIMIT 1
           FOR UPDATE SKIP LOCKED) due
     WHERE o.id = due.id
     RETURNING o.*, due.expired_claim`,
    [ms(leaseMs)],
  );
  return row;
}

/** Extends the lease; false when the claim is no longer this worker's. */
export async function renewClaim(db: Queryable, claim: ClaimedEmail, leaseMs: number) {
  const rows = await db.query(
    `UPDATE mail.outbox SET locked_until = now() + make_interval(secs => $3)
     WHERE id = $1 AND claim_token = $2 RETURNING id`,
    [claim.id, claim.claim_token, ms(leaseMs)],
  );
  return rows.length === 1;
}

/** Records the delivery; false when the claim was taken over before it could be recorded. */
export async function markSent(db: Queryable, claim: ClaimedEmail) {
  const rows = await db.query(
    `UPDATE mail.outbox SET sent_at = now(), locked_until = NULL, claim_token = NULL, last_error = NULL
     WHERE id = $1 AND claim_token = $2 RETURNING id`,
    [claim.id, claim.claim_token],
  );
  return rows.length === 1;
}

export type Release =
  /** Not sent, through no fault of the email (stopping, peer down): due again now, attempt not counted. */
  | { kind: "unsent"; error?: string }
  /** Refused for now: due again after delayMs; failed for good when giveUp. */
  | { kind: "retry"; error: string; delayMs: number; giveUp: boolean }
  /** Refused for good. */
  | { kind: "failed"; error: string };

/** Ends the claim without a delivery, as `release` says. */
export async function releaseClaim(db: Queryable, claim: ClaimedEmail, release: Release) {
  const delayMs = release.kind === "retry" ? release.delayMs : 0;
  const failed = release.kind === "failed" || (release.kind === "retry" && release.giveUp);
  await db.query(
    `UPDATE mail.outbox SET locked_until = NULL, claim_token = NULL,
       attempts = attempts - CASE WHEN $3::boolean THEN 1 ELSE 0 END,
       last_error = COALESCE($4, last_error),
       next_attempt_at = now() + make_interval(secs => $5),
       failed_at = CASE WHEN $6::boolean THEN now() END
     WHERE id = $1 AND claim_token = $2`,
    [
      claim.id,
      claim.claim_token,
      release.kind === "unsent",
      release.error ?? null,
      ms(delayMs),
      failed,
    ],
  );
}
