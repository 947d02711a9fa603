// Delivers the outbox: claims due messages (safe with several instances: SKIP LOCKED and a lease),
// sends each, and on failure retries with exponential backoff. Nothing is deleted; a message
// that keeps failing is marked failed after maxAttempts and stays in the table for a resend.
import type { FastifyBaseLogger } from "fastify";
import type { Database } from "../db/database.ts";
import type { OutboxRow } from "./outbox.ts";
import type { MailTransport } from "./transport.ts";

export type WorkerOptions = {
  /** How often to look for due messages when nobody kicks the worker. */
  pollMs: number;
  /** First retry delay; doubles per attempt up to maxDelayMs. */
  retryBaseMs: number;
  maxDelayMs: number;
  maxAttempts: number;
  batchSize: number;
  /** How long a claimed message stays reserved for this worker. */
  leaseSeconds: number;
};

export const DEFAULT_WORKER_OPTIONS: WorkerOptions = {
  pollMs: 5_000,
  retryBaseMs: 2_000,
  maxDelayMs: 3_600_000,
  maxAttempts: 25,
  batchSize: 20,
  leaseSeconds: 120,
};

export function retryDelayMs(
  attempts: number,
  opts: Pick<WorkerOptions, "retryBaseMs" | "maxDelayMs">,
  random = Math.random,
): number {
  const exponential = Math.min(opts.maxDelayMs, opts.retryBaseMs * 2 ** Math.max(0, attempts - 1));
  return Math.round(exponential * (0.8 + 0.4 * random())); // ±20% jitter spreads retries out
}

export class DeliveryWorker {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private again = false;
  private stopped = true;

  private readonly db: Database;
  private readonly transport: MailTransport;
  private readonly log: FastifyBaseLogger;
  private readonly opts: WorkerOptions;

  constructor(
    db: Database,
    transport: MailTransport,
    log: FastifyBaseLogger,
    opts: WorkerOptions = DEFAULT_WORKER_OPTIONS,
  ) {
    this.db = db;
    this.transport = transport;
    this.log = log;
    this.opts = opts;
  }

  start() {
    this.stopped = false;
    this.kick();
  }

  async stop() {
    this.stopped = true;
    clearTimeout(this.timer);
    await this.running;
    this.transport.close();
  }

  /** Delivers now (after a commit that queued mail) instead of at the next poll. */
  kick() {
    if (this.stopped) return;
    if (this.running) {
      this.again = true;
      return;
    }
    clearTimeout(this.timer);
    this.running = this.drain()
      .then(() => undefined)
      .catch((err: unknown) => this.log.error({ err }, "mail delivery pass failed"))
      .finally(() => {
        this.running = undefined;
        if (this.stopped) return;
        if (this.again) {
          this.again = false;
          this.kick();
        } else {
          this.timer = setTimeout(() => this.kick(), this.opts.pollMs);
          this.timer.unref();
        }
      });
  }

  /** Sends every due message; returns how many were delivered. */
  async drain(): Promise<number> {
    let delivered = 0;
    for (;;) {
      const batch = await this.claim();
      if (batch.length === 0) return delivered;
      for (const message of batch) {
        if (await this.deliver(message)) delivered += 1;
      }
      if (this.stopped) return delivered;
    }
  }

  private claim(): Promise<OutboxRow[]> {
    return this.db.query<OutboxRow>(
      `UPDATE mail.outbox SET locked_until = now() + make_interval(secs => $2), attempts = attempts + 1
       WHERE id IN (
         SELECT id FROM mail.outbox
         WHERE sent_at IS NULL AND failed_at IS NULL AND next_attempt_at <= now()
           AND (locked_until IS NULL OR locked_until < now())
         ORDER BY next_attempt_at LIMIT $1
         FOR UPDATE SKIP LOCKED)
       RETURNING *`,
      [this.opts.batchSize, this.opts.leaseSeconds],
    );
  }

  private async deliver(message: OutboxRow): Promise<boolean> {
    try {
      await this.transport.send(message);
    } catch (err) {
      const giveUp = message.attempts >= this.opts.maxAttempts;
      const delay = retryDelayMs(message.attempts, this.opts);
      const reason = err instanceof Error ? err.message : String(err);
      await this.db.query(
        `UPDATE mail.outbox SET locked_until = NULL, last_error = $2,
           next_attempt_at = now() + make_interval(secs => $3::double precision / 1000),
           failed_at = CASE WHEN $4::boolean THEN now() END
         WHERE id = $1`,
        [message.id, reason.slice(0, 1000), delay, giveUp],
      );
      const entry = {
        id: message.id,
        kind: message.kind,
        attempts: message.attempts,
        retryInMs: giveUp ? null : delay,
        err: reason,
      };
      if (giveUp) this.log.error(entry, "email delivery failed for good; kept in mail.outbox");
      else this.log.warn(entry, "email delivery failed; will retry");
      this.scheduleRetry(delay);
      return false;
    }
    await this.db.query(
      "UPDATE mail.outbox SET sent_at = now(), locked_until = NULL, last_error = NULL WHERE id = $1",
      [message.id],
    );
    this.log.info(
      { id: message.id, kind: message.kind, transport: this.transport.kind },
      "email delivered",
    );
    return true;
  }

  /** Wake up when the earliest retry is due, if that is sooner than the next poll. */
  private scheduleRetry(delay: number) {
    if (delay >= this.opts.pollMs || this.stopped) return;
    const wake = setTimeout(() => this.kick(), delay + 5);
    wake.unref();
  }
}
