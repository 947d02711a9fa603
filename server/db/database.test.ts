import { expect, it } from "vitest";
import { describeEachDatabase } from "../../tests/support/databases.ts";
import { isDatabaseError, UNIQUE_VIOLATION } from "./database.ts";
import { migrate, readMigrations } from "./migrate.ts";

describeEachDatabase("database layer", (ctx) => {
  it("applies every numbered migration once, in order", async () => {
    const all = await readMigrations();
    expect(all.map((m) => m.version)).toEqual([...all.map((m) => m.version)].sort((a, b) => a - b));
    expect(await migrate(ctx.db)).toEqual(all.map((m) => m.version));
    expect(await migrate(ctx.db)).toEqual([]);
    const rows = await ctx.db.query<{ version: number }>(
      "SELECT version FROM schema_migrations ORDER BY version",
    );
    expect(rows.map((r) => r.version)).toEqual(all.map((m) => m.version));
  });

  it("survives concurrent migrate() calls (several instances starting together)", async () => {
    const extra = {
      version: 9001,
      name: "concurrency_probe",
      sql: "CREATE TABLE internal.concurrency_probe (id int)",
    };
    const results = await Promise.all([
      migrate(ctx.db, [extra]),
      migrate(ctx.db, [extra]),
      migrate(ctx.db, [extra]),
    ]);
    expect(results.flat()).toEqual([9001]);
    await ctx.db.exec(
      "DROP TABLE internal.concurrency_probe; DELETE FROM schema_migrations WHERE version = 9001",
    );
  });

  it("keeps PostgreSQL's error code on a unique violation", async () => {
    await ctx.db.exec("CREATE TABLE internal.uniq_probe (email text PRIMARY KEY)");
    await ctx.db.query("INSERT INTO internal.uniq_probe VALUES ($1)", ["a@b.co"]);
    const err = await ctx.db
      .query("INSERT INTO internal.uniq_probe VALUES ($1)", ["a@b.co"])
      .catch((e: unknown) => e);
    expect(isDatabaseError(err)).toBe(true);
    expect((err as { code: string }).code).toBe(UNIQUE_VIOLATION);
    expect((err as { constraint?: string }).constraint).toBe("uniq_probe_pkey");
  });

  it("rolls a transaction back when it throws, and commits when it resolves", async () => {
    await ctx.db.exec("CREATE TABLE internal.tx_probe (n int)");
    await expect(
      ctx.db.transaction(async (tx) => {
        await tx.query("INSERT INTO internal.tx_probe VALUES (1)");
        throw new Error("boom");
      }),
    ).rejects.toThrow("boom");
    await ctx.db.transaction(async (tx) => {
      await tx.query("INSERT INTO internal.tx_probe VALUES (2)");
    });
    expect(await ctx.db.query("SELECT n FROM internal.tx_probe")).toEqual([{ n: 2 }]);
  });

  it("passes parameters safely (no SQL injection through values)", async () => {
    const rows = await ctx.db.query<{ v: string }>("SELECT $1::text AS v", [
      "'); DROP TABLE schema_migrations; --",
    ]);
    expect(rows[0]!.v).toBe("'); DROP TABLE schema_migrations; --");
    expect(await ctx.db.query("SELECT 1 FROM schema_migrations LIMIT 1")).toHaveLength(1);
  });
});
