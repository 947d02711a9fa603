// A delivery's outcome (delivered, retry, failed) is counted in revwise_deliveries_total once the
// database has recorded it: never for a claim taken over before its outcome was written (the new
// holder counts its own attempt), never in a transaction rolled back (the engines' adapters run
// what waits for a commit: db/database.test.ts).
import { expect, it } from "vitest";
import { describeWithDatabase } from "../../tests/support/databases.ts";
import { queueTagged } from "../../tests/support/outbox.ts";
import { migrate } from "../db/migrate.ts";
import { emailClaims } from "../mail/claims.ts";
import { deliveries } from "../metrics/metrics.ts";

type Outcome = "delivered" | "retry" | "failed";

async function counted(outcome: Outcome): Promise<number> {
  const { values } = await deliveries.get();
  return values.find((v) => v.labels.queue === "email" && v.labels.outcome === outcome)?.value ?? 0;
}

describeWithDatabase("delivery outcomes counted", (ctx) => {
  /** Queues one email and claims it. */
  async function claimed(tag: string) {
    await migrate(ctx.db);
    await queueTagged(ctx.db, tag, [`${tag}-${ctx.kind}-${Date.now()}@claims.example`]);
    return (await emailClaims.next(ctx.db, 60_000))!;
  }

  it("counts each outcome once it is recorded", async () => {
    const before = { retry: await counted("retry"), delivered: await counted("delivered") };
    const claim = await claimed("recorded");
    const retry = { kind: "retry", error: "451 try later", delayMs: 0, giveUp: false } as const;
    await emailClaims.release(ctx.db, claim, retry);
    expect(await counted("retry")).toBe(before.retry + 1);
    const again = (await emailClaims.next(ctx.db, 60_000))!;
    expect(again.id).toBe(claim.id);
    expect(await emailClaims.done(ctx.db, again)).toBe(true);
    expect(await counted("delivered")).toBe(before.delivered + 1);
  });

  it("counts nothing for a claim taken over before its outcome was written", async () => {
    const before = { failed: await counted("failed"), delivered: await counted("delivered") };
    const first = await claimed("taken-over");
    await ctx.db.query("UPDATE mail.outbox SET claim_token = gen_random_uuid() WHERE id = $1", [
      first.id,
    ]);
    await emailClaims.release(ctx.db, first, { kind: "failed", error: "550 no such user" });
    expect(await emailClaims.done(ctx.db, first)).toBe(false);
    expect(await counted("failed")).toBe(before.failed);
    expect(await counted("delivered")).toBe(before.delivered);
  });

  it("counts an outcome written in a transaction once it commits, and never when it rolls back", async () => {
    const before = { failed: await counted("failed"), delivered: await counted("delivered") };
    const claim = await claimed("transaction");
    const rolledBack = new Error("rolled back");
    await expect(
      ctx.db.transaction(async (tx) => {
        expect(await emailClaims.done(tx, claim)).toBe(true);
        throw rolledBack;
      }),
    ).rejects.toBe(rolledBack);
    expect(await counted("delivered")).toBe(before.delivered);
    await ctx.db.transaction(async (tx) => {
      await emailClaims.release(tx, claim, { kind: "failed", error: "550 no such user" });
      expect(await counted("failed")).toBe(before.failed);
    });
    expect(await counted("failed")).toBe(before.failed + 1);
  });
});
