// A lease held while a row is on the wire (lease.ts), against claims in the database (claims.ts):
// when this process stops running for longer than the lease's margin (CPU starved, a long pause)
// while the database's lease still holds, the send goes on once the database confirms the claim
// is still this worker's; a claim taken over meanwhile aborts it. On both engines, whose clock
// keeps the lease while this process's clock is stopped.
import { pino } from "pino";
import { expect, it } from "vitest";
import { describeEachDatabase } from "../../tests/support/databases.ts";
import { queueTagged } from "../../tests/support/outbox.ts";
import { readUntil } from "../../tests/support/poll.ts";
import { migrate } from "../db/migrate.ts";
import { emailClaims } from "../mail/claims.ts";
import { Lease } from "./lease.ts";

const LEASE_MS = 2_000;
const log = pino({ level: "silent" });

/** This process does not run for `ms` (as when the machine's cores are all taken). */
const stall = (ms: number) => {
  const end = performance.now() + ms;
  while (performance.now() < end);
};

describeEachDatabase("claim leases", (ctx) => {
  /** Queues one email and claims it, holding the claim with a lease. */
  async function held(tag: string) {
    await migrate(ctx.db);
    await queueTagged(ctx.db, tag, [`${tag}-${ctx.kind}@lease.example`]);
    const claimedAt = performance.now();
    const claim = (await emailClaims.next(ctx.db, LEASE_MS))!;
    const lease = new Lease(
      () => emailClaims.renew(ctx.db, claim, LEASE_MS),
      LEASE_MS,
      claimedAt,
      log,
    );
    const lockedUntil = async () =>
      (
        await ctx.db.query<{ locked_until: Date; claim_token: string }>(
          "SELECT locked_until, claim_token FROM mail.outbox WHERE id = $1",
          [claim.id],
        )
      )[0]!;
    return { claim, lease, lockedUntil, first: (await lockedUntil()).locked_until.getTime() };
  }

  it("goes on with a send when this process paused past the margin and the claim is still its own", async () => {
    const { claim, lease, lockedUntil, first } = await held("paused");
    try {
      // Past the margin (a fifth of the lease before its end) on this process's clock, within
      // the lease on the database's.
      stall(LEASE_MS * 0.85);
      const row = await readUntil(
        lockedUntil,
        (r) => lease.signal.aborted || r.locked_until.getTime() > first,
      );
      expect(lease.signal.aborted).toBe(false);
      expect(row.claim_token).toBe(claim.claim_token);
      expect(lease.remainingMs).toBeGreaterThan(LEASE_MS / 2);
    } finally {
      lease.end();
      await emailClaims.done(ctx.db, claim);
    }
  });

  it("aborts a send when this process paused past the margin and the claim was taken over", async () => {
    const { claim, lease } = await held("taken");
    try {
      // Another worker takes the claim over, as it may once the lease has run out.
      await ctx.db.query(
        "UPDATE mail.outbox SET locked_until = now() - interval '1 second' WHERE id = $1",
        [claim.id],
      );
      const other = await emailClaims.next(ctx.db, 60_000);
      expect(other?.id).toBe(claim.id);
      stall(LEASE_MS * 0.85);
      await readUntil(async () => lease.signal.aborted, Boolean);
      expect(String(lease.signal.reason)).toContain("taken over");
    } finally {
      lease.end();
    }
  });
});
