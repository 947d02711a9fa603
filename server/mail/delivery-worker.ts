// Delivers the outbox, exactly once per email under slow peers, stops and several instances:
// - each lane claims one email at a time (a token and a lease, SKIP LOCKED), holds the lease while
//   the peer answers, and records the outcome only under its own token (queue/outbox-worker.ts);
// - stop() lets each lane finish the email on the wire, claims nothing more, and after a grace
//   period aborts what is still on the wire and releases it, so another worker takes it at once;
// - a peer that fails (refused, dropped, timed out) pauses every lane; one cheap probe every
//   probeMs resumes delivery as soon as the peer answers, and no email is postponed by it;
// - the server's verdict on one email is kept apart: a 5xx fails it for good at once, a 4xx
//   retries it with exponential backoff, maxAttempts times. Nothing is deleted.
// What remains at least once: a process killed (or cut off from the database longer than the
// lease) after the peer accepted an email and before the database recorded it; that email is sent
// again after its lease, with the same Message-ID. See docs/decisions/0014-mail-delivery.md.
import type { FastifyBaseLogger } from "fastify";
import type { Database } from "../db/database.ts";
import type { Lease } from "../queue/lease.ts";
import { OutboxWorker } from "../queue/outbox-worker.ts";
import { emailClaims, type ClaimedEmail } from "./claims.ts";
import { connectionFailure } from "../platform/connection-failures.ts";
import { classifyFailure, errorText } from "./failures.ts";
import type { OutboxRow } from "./outbox.ts";
import type { MailTransport } from "./transport.ts";

export type WorkerOptions = {
  /** How often to look for due emails when nobody kicks the worker. */
  pollMs: number;
  /** First retry delay of an email the server deferred (4xx); doubles up to maxDelayMs. */
  retryBaseMs: number;
  maxDelayMs: number;
  /** Deferrals after which an email is marked failed. */
  maxAttempts: number;
  /** Emails sent at once (each lane holds one SMTP connection of the pool). */
  concurrency: number;
  /** How long a claim outlives a worker that stopped renewing it (a crash). */
  leaseMs: number;
  /** While the peer is down, how often to check whether it is back. */
  probeMs: number;
  /** How long stop() lets the emails on the wire finish before it aborts them. */
  stopGraceMs: number;
};

export const DEFAULT_WORKER_OPTIONS: WorkerOptions = {
  pollMs: 5_000,
  retryBaseMs: 2_000,
  maxDelayMs: 3_600_000,
  maxAttempts: 25,
  concurrency: 2,
  leaseMs: 60_000,
  probeMs: 5_000,
  stopGraceMs: 5_000,
};

export function retryDelayMs(
  attempts: number,
  opts: Pick<WorkerOptions, "retryBaseMs" | "maxDelayMs">,
  random = Math.random,
): number {
  const exponential = Math.min(opts.maxDelayMs, opts.retryBaseMs * 2 ** Math.max(0, attempts - 1));
  return Math.round(exponential * (0.8 + 0.4 * random())); // ±20% jitter spreads retries out
}

export class DeliveryWorker extends OutboxWorker<OutboxRow> {
  private readonly transport: MailTransport;
  private readonly opts: WorkerOptions;

  constructor(
    db: Database,
    transport: MailTransport,
    log: FastifyBaseLogger,
    opts: WorkerOptions = DEFAULT_WORKER_OPTIONS,
  ) {
    super(db, emailClaims, log, opts);
    this.transport = transport;
    this.opts = opts;
  }

  /** Finishes the emails on the wire (aborting them after stopGraceMs), then closes the transport. */
  override async stop() {
    await super.stop();
    this.transport.close();
  }

  protected async deliver(claim: ClaimedEmail, lease: Lease) {
    if (claim.expired_claim) {
      this.log.warn(
        { id: claim.id, kind: claim.kind },
        "sending an email whose claim expired unreleased (its worker died, or could not record the send while the database was out of its reach): if that send had completed, it goes out twice",
      );
    }
    try {
      await this.transport.send(claim, lease.signal);
    } catch (err) {
      await this.failed(claim, err, lease);
      return;
    }
    await this.recordSent(claim, lease);
  }

  /** Records a delivery, retrying while the claim is certainly still this worker's. */
  private async recordSent(claim: ClaimedEmail, lease: Lease) {
    const entry = { id: claim.id, kind: claim.kind, transport: this.transport.kind };
    for (;;) {
      try {
        if (await emailClaims.done(this.db, claim)) this.log.info(entry, "email delivered");
        else
          this.log.error(entry, "email delivered after its claim passed on: it may go out twice");
        return;
      } catch (err) {
        if (lease.signal.aborted || lease.remainingMs < 500) {
          this.log.error(
            { ...entry, err },
            "email delivered but not recorded before its claim expired: it may go out twice",
          );
          return;
        }
        await new Promise((r) => setTimeout(r, 250));
      }
    }
  }

  private async failed(claim: ClaimedEmail, err: unknown, lease: Lease) {
    // The outbox, which the workspace lists, keeps the SMTP server's own answers, but of a failed
    // connection only its kind; the log has it all.
    const error = connectionFailure(err, "the SMTP server") ?? errorText(err);
    const entry = { id: claim.id, kind: claim.kind, attempts: claim.attempts, err: errorText(err) };
    if (lease.signal.aborted) {
      const reason = errorText(lease.signal.reason);
      this.log.warn({ ...entry, reason }, "email send aborted; released for another attempt");
      await this.release(claim, { kind: "unsent", error: `aborted: ${reason}` });
      return;
    }
    switch (classifyFailure(err)) {
      case "peer":
        await this.release(claim, { kind: "unsent", error });
        this.peerDown(entry.err);
        return;
      case "rejected":
        this.log.error(entry, "the SMTP server rejected an email for good; kept in mail.outbox");
        await this.release(claim, { kind: "failed", error });
        return;
      case "deferred": {
        const giveUp = claim.attempts >= this.opts.maxAttempts;
        const delayMs = retryDelayMs(claim.attempts, this.opts);
        if (giveUp) this.log.error(entry, "email deferred too often; failed, kept in mail.outbox");
        else this.log.warn({ ...entry, retryInMs: delayMs }, "the SMTP server deferred an email");
        await this.release(claim, { kind: "retry", error, delayMs, giveUp });
        // Wake up when the retry is due, if that is sooner than the next poll.
        if (!giveUp && delayMs < this.opts.pollMs)
          setTimeout(() => this.kick(), delayMs + 5).unref();
        return;
      }
    }
  }

  private peerDown(error: string) {
    if (this.paused || this.stopped) return;
    this.log.warn(
      { err: error, probeEveryMs: this.opts.probeMs },
      "the SMTP server is unavailable: delivery paused until it answers again",
    );
    this.paused = this.probeUntilBack().finally(() => (this.paused = undefined));
  }

  private async probeUntilBack() {
    const since = performance.now();
    while (!this.stopped) {
      await this.sleep(this.opts.probeMs, false);
      if (this.stopped) return;
      try {
        await this.transport.verify();
      } catch {
        continue;
      }
      const downMs = Math.round(performance.now() - since);
      this.log.info({ downMs }, "the SMTP server answers again: delivery resumed");
      return;
    }
  }
}
