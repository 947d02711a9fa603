// Delivers the outbox, exactly once per email under slow peers, stops and several instances:
// - each lane claims one email at a time (claims.ts: a token and a lease, SKIP LOCKED), holds the
//   lease while the peer answers (lease.ts), and records the outcome only under its own token;
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
import { claimNext, markSent, releaseClaim, type ClaimedEmail, type Release } from "./claims.ts";
import { classifyFailure, errorText } from "./failures.ts";
import { Lease } from "./lease.ts";
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

type Sleeper = { wake: () => void; onKick: boolean };

export class DeliveryWorker {
  private stopped = true;
  private lanes: Promise<void>[] = [];
  private readonly onTheWire = new Set<Lease>();
  /** Set while the peer is down: resolves when a probe finds it back (or the worker stops). */
  private outage: Promise<void> | undefined;
  private readonly sleepers = new Set<Sleeper>();
  private kicks = 0;

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
    if (!this.stopped) return;
    this.stopped = false;
    this.lanes = Array.from({ length: this.opts.concurrency }, () => this.lane());
  }

  /** Finishes the emails on the wire (aborting them after stopGraceMs), then closes the transport. */
  async stop() {
    this.stopped = true;
    for (const sleeper of this.sleepers) sleeper.wake();
    const grace = setTimeout(() => {
      for (const lease of this.onTheWire) lease.abort("the worker is stopping");
    }, this.opts.stopGraceMs);
    await Promise.all(this.lanes);
    clearTimeout(grace);
    this.lanes = [];
    this.transport.close();
  }

  /** Delivers now (after a commit that queued mail) instead of at the next poll. */
  kick() {
    if (this.stopped) return;
    this.kicks += 1;
    for (const sleeper of this.sleepers) if (sleeper.onKick) sleeper.wake();
  }

  private async lane() {
    while (!this.stopped) {
      if (this.outage) {
        await this.outage;
        continue;
      }
      const kicks = this.kicks;
      const claimedAt = performance.now();
      let claim: ClaimedEmail | undefined;
      try {
        claim = await claimNext(this.db, this.opts.leaseMs);
      } catch (err) {
        this.log.error({ err }, "could not claim an email; will try again");
        await this.sleep(this.opts.pollMs, false);
        continue;
      }
      if (!claim) {
        if (kicks === this.kicks) await this.sleep(this.opts.pollMs, true);
      } else if (this.stopped) {
        await this.release(claim, { kind: "unsent" });
      } else {
        await this.deliver(claim, claimedAt);
      }
    }
  }

  private async deliver(claim: ClaimedEmail, claimedAt: number) {
    if (claim.expired_claim) {
      this.log.warn(
        { id: claim.id, kind: claim.kind },
        "sending an email whose claim expired unreleased (its worker died): if that worker's send had completed, it goes out twice",
      );
    }
    const lease = new Lease(this.db, claim, this.opts.leaseMs, claimedAt, this.log);
    this.onTheWire.add(lease);
    try {
      await this.transport.send(claim, lease.signal);
    } catch (err) {
      lease.end();
      this.onTheWire.delete(lease);
      await this.failed(claim, err, lease);
      return;
    }
    try {
      await this.recordSent(claim, lease);
    } finally {
      lease.end();
      this.onTheWire.delete(lease);
    }
  }

  /** Records a delivery, retrying while the claim is certainly still this worker's. */
  private async recordSent(claim: ClaimedEmail, lease: Lease) {
    const entry = { id: claim.id, kind: claim.kind, transport: this.transport.kind };
    for (;;) {
      try {
        if (await markSent(this.db, claim)) this.log.info(entry, "email delivered");
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
    const error = errorText(err);
    const entry = { id: claim.id, kind: claim.kind, attempts: claim.attempts, err: error };
    if (lease.signal.aborted) {
      const reason = errorText(lease.signal.reason);
      this.log.warn({ ...entry, reason }, "email send aborted; released for another attempt");
      await this.release(claim, { kind: "unsent", error: `aborted: ${reason}` });
      return;
    }
    switch (classifyFailure(err)) {
      case "peer":
        await this.release(claim, { kind: "unsent", error });
        this.peerDown(error);
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

  /** Ends a claim without delivery; if the database fails, the lease runs out instead. */
  private async release(claim: ClaimedEmail, release: Release) {
    try {
      await releaseClaim(this.db, claim, release);
    } catch (err) {
      this.log.error({ err, id: claim.id }, "could not release an email's claim; it expires");
    }
  }

  private peerDown(error: string) {
    if (this.outage || this.stopped) return;
    this.log.warn(
      { err: error, probeEveryMs: this.opts.probeMs },
      "the SMTP server is unavailable: delivery paused until it answers again",
    );
    this.outage = this.probeUntilBack().finally(() => (this.outage = undefined));
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

  /** Waits ms; stop() ends every wait, kick() the waits of idle lanes. */
  private sleep(ms: number, onKick: boolean): Promise<void> {
    if (this.stopped) return Promise.resolve();
    return new Promise((resolve) => {
      const sleeper: Sleeper = {
        onKick,
        wake: () => {
          clearTimeout(timer);
          this.sleepers.delete(sleeper);
          resolve();
        },
      };
      const timer = setTimeout(sleeper.wake, ms);
      timer.unref();
      this.sleepers.add(sleeper);
    });
  }
}
