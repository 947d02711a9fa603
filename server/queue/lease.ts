// Holds a claim (claims.ts) while its row is on the wire (an email, a webhook): renews the lease
// every fifth of its length, and aborts the send when the claim may be about to pass to another
// worker (renewals failing or the claim taken over), so a send never goes on after another worker
// could have started it.
// Time is this process's monotonic clock, counted from before each renewal was asked: the
// database's lease ends no earlier than that.
// A process that did not run for a while (CPU starved, a long pause) finds the margin passed on
// its clock without any renewal having failed; its send went on meanwhile all the same, and
// aborting it now would only lose the answer to a request the peer may already have taken (the
// row would then go again). It asks the database instead: a renewal under its own token means
// nobody else claimed the row, and the send goes on; a claim taken over, a database error or no
// answer by the next renewal aborts it.
import type { FastifyBaseLogger } from "fastify";

/** Asks the database for more time; false when the claim is no longer this worker's. */
type Renew = () => Promise<boolean>;

export class Lease {
  readonly signal: AbortSignal;
  private readonly controller = new AbortController();
  private readonly timer: NodeJS.Timeout;
  private validUntil: number;
  private readonly renewClaim: Renew;
  private readonly leaseMs: number;
  private readonly log: FastifyBaseLogger;
  /** When the renewal timer last ran (performance.now()). */
  private lastTick = performance.now();
  /** Set while a renewal asked after a pause of this process has not answered. */
  private confirming = false;

  /** `log` names the claimed row; `claimedAt`: performance.now() from before the claim was asked. */
  constructor(renew: Renew, leaseMs: number, claimedAt: number, log: FastifyBaseLogger) {
    this.renewClaim = renew;
    this.leaseMs = leaseMs;
    this.log = log;
    this.signal = this.controller.signal;
    this.validUntil = claimedAt + leaseMs;
    this.timer = setInterval(() => void this.renew(), leaseMs / 5);
    this.timer.unref();
  }

  /** How long this worker still certainly holds the claim (unless it was taken over). */
  get remainingMs(): number {
    return this.validUntil - performance.now();
  }

  /** Ends the send in flight, e.g. when stopping takes too long. */
  abort(reason: string) {
    if (!this.signal.aborted) this.controller.abort(new Error(reason));
  }

  end() {
    clearInterval(this.timer);
  }

  private async renew() {
    const asked = performance.now();
    const period = this.leaseMs / 5;
    // The timer ran more than a period late: this process was not running, the database was.
    const paused = asked - this.lastTick > 2 * period;
    this.lastTick = asked;
    // A margin of a fifth of the lease: the abort closes the connection well before expiry.
    const lapsing = asked > this.validUntil - period;
    if (lapsing && (this.confirming || !paused)) {
      this.abort("the claim could not be renewed in time");
      return;
    }
    if (lapsing) this.confirming = true;
    try {
      if (await this.renewClaim()) {
        this.validUntil = Math.max(this.validUntil, asked + this.leaseMs);
      } else {
        this.abort("the claim was taken over");
      }
    } catch (err) {
      if (lapsing) this.abort("the claim could not be renewed in time");
      else this.log.warn({ err }, "could not renew a claim; will retry");
    } finally {
      if (lapsing) this.confirming = false;
    }
  }
}
