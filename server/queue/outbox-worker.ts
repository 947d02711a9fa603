// What every outbox worker (mail, webhooks) does around one delivery: lanes that each claim one
// due row at a time (claims.ts), hold its lease while it is on the wire (lease.ts), and wait
// between claims (naps.ts) until kicked or the next poll; stop() claims nothing more, lets each
// lane finish the row on the wire, and after a grace period aborts what is still on the wire (the
// subclass releases it). A subclass says how one claimed row is delivered.
// With nothing due, one idle lane polls and the others wait for a kick: a lane that claims a row
// kicks them, so a backlog still goes out on every lane, and an idle worker asks the database
// once a poll instead of once per lane (each ask costs an idle embedded database tens of ms).
import type { FastifyBaseLogger } from "fastify";
import type { Database } from "../db/database.ts";
import type { Claimed, Claims, Release } from "./claims.ts";
import { Lease } from "./lease.ts";
import { Naps } from "./naps.ts";

export type LaneOptions = {
  /** How often to look for due rows when nobody kicks the worker. */
  pollMs: number;
  /** Rows on the wire at once. */
  concurrency: number;
  /** How long a claim outlives a worker that stopped renewing it (a crash). */
  leaseMs: number;
  /** How long stop() lets the rows on the wire finish before it aborts them. */
  stopGraceMs: number;
};

export abstract class OutboxWorker<R> {
  private stopping = true;
  private lanes: Promise<void>[] = [];
  private readonly onTheWire = new Set<Lease>();
  private readonly naps = new Naps();
  private kicks = 0;
  /** Whether an idle lane is waiting out the poll (the others wait for a kick). */
  private polling = false;
  /** While set, lanes wait for it before claiming again (e.g. while the peer is down). */
  protected paused: Promise<void> | undefined;

  protected readonly db: Database;
  protected readonly log: FastifyBaseLogger;
  private readonly claims: Claims<R>;
  private readonly lanesOpts: LaneOptions;

  constructor(db: Database, claims: Claims<R>, log: FastifyBaseLogger, opts: LaneOptions) {
    this.db = db;
    this.claims = claims;
    this.log = log;
    this.lanesOpts = opts;
  }

  /** Sends one claimed row; `lease.signal` aborts the send when the claim may pass on. */
  protected abstract deliver(claim: Claimed<R>, lease: Lease): Promise<void>;

  protected get stopped() {
    return this.stopping;
  }

  start() {
    if (!this.stopping) return;
    this.stopping = false;
    this.lanes = Array.from({ length: this.lanesOpts.concurrency }, () => this.lane());
  }

  /** Finishes the rows on the wire, aborting them after stopGraceMs. */
  async stop() {
    this.stopping = true;
    this.naps.wakeAll();
    const grace = setTimeout(() => {
      for (const lease of this.onTheWire) lease.abort("the worker is stopping");
    }, this.lanesOpts.stopGraceMs);
    await Promise.all(this.lanes);
    clearTimeout(grace);
    this.lanes = [];
  }

  /** Delivers now (after a commit that queued rows) instead of at the next poll. */
  kick() {
    if (this.stopping) return;
    this.kicks += 1;
    this.naps.kick();
  }

  /** An idle lane's wait: the poll for one lane at a time, a kick (or stop) for the others. */
  private async idle(pollMs: number) {
    if (this.polling) return this.sleep(Infinity, true);
    this.polling = true;
    try {
      await this.sleep(pollMs, true);
    } finally {
      this.polling = false;
    }
  }

  /** Waits ms; stop() ends every wait, kick() the waits of idle lanes. */
  protected sleep(ms: number, onKick: boolean): Promise<void> {
    return this.stopping ? Promise.resolve() : this.naps.sleep(ms, onKick);
  }

  /** Ends a claim without delivery; if the database fails, the lease runs out instead. */
  protected async release(claim: Claimed<R>, release: Release, status?: number) {
    try {
      await this.claims.release(this.db, claim, release, status);
    } catch (err) {
      this.log.error({ err, id: claim.id }, "could not release a claim; it expires");
    }
  }

  private async lane() {
    const { leaseMs, pollMs } = this.lanesOpts;
    while (!this.stopping) {
      if (this.paused) {
        await this.paused;
        continue;
      }
      const kicks = this.kicks;
      const claimedAt = performance.now();
      let claim: Claimed<R> | undefined;
      try {
        claim = await this.claims.next(this.db, leaseMs);
      } catch (err) {
        this.log.error({ err }, "could not claim the next row to deliver; will try again");
        await this.sleep(pollMs, false);
        continue;
      }
      if (!claim) {
        if (kicks === this.kicks) await this.idle(pollMs);
      } else if (this.stopping) {
        await this.release(claim, { kind: "unsent" });
      } else {
        const row = claim;
        // More may be due: the lanes waiting for a kick claim too.
        this.naps.kick();
        const lease = new Lease(
          () => this.claims.renew(this.db, row, leaseMs),
          leaseMs,
          claimedAt,
          this.log.child({ id: row.id }),
        );
        this.onTheWire.add(lease);
        try {
          await this.deliver(row, lease);
        } finally {
          lease.end();
          this.onTheWire.delete(lease);
        }
      }
    }
  }
}
