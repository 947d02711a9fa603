import { expect, it } from "vitest";
import { describeEachDatabase } from "../../tests/support/databases.ts";
import { isDatabaseError, UNIQUE_VIOLATION } from "./database.ts";
import { migrate, readMigrations } from "./migrate.ts";

// The first test applies every migration to an empty database: none from the build's template.
describeEachDatabase("database layer", { fromScratch: true }, (ctx) => {
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

  it("keeps an open transaction's writes from other queries until it commits", async () => {
    await ctx.db.exec("CREATE TABLE internal.iso_probe (n int)");
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let inserted!: () => void;
    const wrote = new Promise<void>((resolve) => (inserted = resolve));
    const tx = ctx.db.transaction(async (q) => {
      await q.query("INSERT INTO internal.iso_probe VALUES (1)");
      inserted();
      await held;
    });
    await wrote;
    // Meanwhile, outside: the uncommitted row is not seen (PostgreSQL: isolation; PGlite: the
    // query waits for the transaction to end, as on its single connection).
    const outside = ctx.db.query<{ n: number }>(
      "SELECT count(*)::int AS n FROM internal.iso_probe",
    );
    const seenBefore = await Promise.race([
      outside.then((rows) => rows[0]!.n),
      new Promise<"waiting">((resolve) => setTimeout(() => resolve("waiting"), 100)),
    ]);
    expect([0, "waiting"]).toContain(seenBefore);
    release();
    await tx;
    expect(await ctx.db.query("SELECT n FROM internal.iso_probe")).toEqual([{ n: 1 }]);
  });

  it("runs a transaction's statements asked together one after another, in the order asked, on its one connection", async () => {
    await ctx.db.exec("CREATE TABLE internal.turn_probe (n int)");
    const warnings: string[] = [];
    const onWarning = (w: Error) => warnings.push(w.message);
    process.on("warning", onWarning);
    try {
      const kept = await ctx.db.transaction(async (tx) => {
        const asked = [1, 2, 3].map((n) =>
          tx.query<{ n: number }>(
            "INSERT INTO internal.turn_probe VALUES ($1) RETURNING (SELECT count(*)::int FROM internal.turn_probe) AS n",
            [n],
          ),
        );
        return (await Promise.all(asked)).map(([row]) => row!.n);
      });
      // Each insert saw the rows of those asked before it, and only those.
      expect(kept).toEqual([0, 1, 2]);
      await new Promise((resolve) => setImmediate(resolve));
      expect(warnings.filter((w) => /already executing a query/.test(w))).toEqual([]);
    } finally {
      process.off("warning", onWarning);
      await ctx.db.exec("DROP TABLE internal.turn_probe");
    }
  });

  it("reports a failed commit as the transaction's error, with its code", async () => {
    await ctx.db.exec(`CREATE TABLE internal.deferred_probe (
      email text UNIQUE DEFERRABLE INITIALLY DEFERRED)`);
    const err = await ctx.db
      .transaction(async (tx) => {
        await tx.query("INSERT INTO internal.deferred_probe VALUES ('a'), ('a')");
      })
      .catch((e: unknown) => e);
    expect((err as { code?: string }).code).toBe(UNIQUE_VIOLATION);
    expect(await ctx.db.query("SELECT * FROM internal.deferred_probe")).toEqual([]);
    // The database is usable afterwards.
    expect(await ctx.db.query("SELECT 1 AS one")).toEqual([{ one: 1 }]);
  });

  it("runs what waits for a commit at once outside a transaction, after COMMIT inside one, never after a rollback or a failed commit", async () => {
    const ran: string[] = [];
    ctx.db.afterCommit(() => ran.push("outside"));
    expect(ran).toEqual(["outside"]);
    await ctx.db.transaction(async (tx) => {
      tx.afterCommit(() => ran.push("committed"));
      await tx.query("SELECT 1");
      expect(ran).toEqual(["outside"]);
    });
    expect(ran).toEqual(["outside", "committed"]);
    await expect(
      ctx.db.transaction(async (tx) => {
        tx.afterCommit(() => ran.push("rolled back"));
        throw new Error("boom");
      }),
    ).rejects.toThrow("boom");
    await ctx.db.exec(`CREATE TABLE internal.after_commit_probe (
      email text UNIQUE DEFERRABLE INITIALLY DEFERRED)`);
    const err = await ctx.db
      .transaction(async (tx) => {
        await tx.query("INSERT INTO internal.after_commit_probe VALUES ('a'), ('a')");
        tx.afterCommit(() => ran.push("commit failed"));
      })
      .catch((e: unknown) => e);
    expect((err as { code?: string }).code).toBe(UNIQUE_VIOLATION);
    expect(ran).toEqual(["outside", "committed"]);
  });

  it("returns PostgreSQL's values as JavaScript values", async () => {
    const [row] = await ctx.db.query(
      `SELECT '2026-01-02T03:04:05Z'::timestamptz AS at, '{"a":[1,"b"]}'::jsonb AS doc,
              42::int AS n, true AS yes, NULL::text AS none`,
    );
    expect(row).toEqual({
      at: new Date("2026-01-02T03:04:05Z"),
      doc: { a: [1, "b"] },
      n: 42,
      yes: true,
      none: null,
    });
  });

  it("runs a statement again after its table's columns changed, and more distinct statements than are kept prepared", async () => {
    await ctx.db.exec("CREATE TABLE internal.shape_probe (id int, label text)");
    const read = "SELECT * FROM internal.shape_probe WHERE id = $1";
    await ctx.db.query("INSERT INTO internal.shape_probe VALUES ($1, $2)", [1, "one"]);
    expect(await ctx.db.query(read, [1])).toEqual([{ id: 1, label: "one" }]);
    const inTransaction = () => ctx.db.transaction((tx) => tx.query(read, [1]));
    expect(await inTransaction()).toEqual([{ id: 1, label: "one" }]);

    // Outside a transaction the statement runs at once; inside one, the transaction it first
    // runs in after the change may fail, and the next one runs it.
    await ctx.db.exec("ALTER TABLE internal.shape_probe ADD COLUMN added_at timestamptz");
    expect(await ctx.db.query(read, [1])).toEqual([{ id: 1, label: "one", added_at: null }]);
    await ctx.db.exec("ALTER TABLE internal.shape_probe DROP COLUMN label");
    const first = await inTransaction().catch((err: Error) => err);
    if (first instanceof Error) expect(first.message).toMatch(/cached plan/);
    else expect(first).toEqual([{ id: 1, added_at: null }]);
    expect(await inTransaction()).toEqual([{ id: 1, added_at: null }]);
    expect(await ctx.db.query(read, [1])).toEqual([{ id: 1, added_at: null }]);

    // Each text below is a statement of its own; the first ones run again at the end.
    const texts = Array.from(
      { length: 300 },
      (_, i) => `SELECT $1::int + ${i} AS n, $2::text AS label, $3::jsonb AS doc`,
    );
    for (const [i, sql] of [...texts.entries(), ...texts.slice(0, 3).entries()]) {
      expect(await ctx.db.query(sql, [i, `s${i}`, { i }])).toEqual([
        { n: 2 * i, label: `s${i}`, doc: { i } },
      ]);
    }
    if (ctx.db.kind === "pglite") {
      // The embedded database keeps the latest 256 statements prepared, those just run among them.
      const prepared = await ctx.db.query<{ statement: string }>(
        "SELECT statement FROM pg_prepared_statements",
      );
      expect(prepared.length).toBeLessThanOrEqual(256);
      expect(prepared.map((p) => p.statement)).toEqual(expect.arrayContaining(texts.slice(0, 3)));
    }
    await ctx.db.exec("DROP TABLE internal.shape_probe");
  });
});
