// Rows inserted at the same moment share a statement; each still gets its own outcome.
import { beforeAll, beforeEach, expect, it } from "vitest";
import { describeEachDatabase } from "../../tests/support/databases.ts";
import { openTestPglite } from "../../tests/support/pglite.ts";
import type { Database } from "./database.ts";
import { InsertBatches } from "./insert-batches.ts";

describeEachDatabase("insert batches", (ctx) => {
  /** The statements sent through the batches, each with its parameters' count. */
  let sent: { sql: string; params: number }[] = [];
  let batches: InsertBatches;

  beforeAll(async () => {
    await ctx.db.exec(`CREATE TABLE batch_rows (id integer PRIMARY KEY, email text UNIQUE NOT NULL,
      CONSTRAINT batch_rows_email_check CHECK (email LIKE '%@%'))`);
  });

  beforeEach(async () => {
    await ctx.db.exec("TRUNCATE batch_rows");
    sent = [];
    batches = new InsertBatches(counting(ctx.db, sent), "batch_rows", ["id", "email"]);
  });

  const stored = async () =>
    (await ctx.db.query<{ id: number }>("SELECT id FROM batch_rows ORDER BY id")).map((r) => r.id);

  it("sends a lone row at once, in a statement of its own", async () => {
    await batches.insert([1, "one@example.com"]);
    expect(sent).toEqual([
      { sql: "INSERT INTO batch_rows (id, email) VALUES ($1, $2)", params: 2 },
    ]);
    expect(await stored()).toEqual([1]);
  });

  it("sends the rows asked while a statement runs together in the next one", async () => {
    const ids = Array.from({ length: 30 }, (_, i) => i + 1);
    await Promise.all(ids.map((id) => batches.insert([id, `row${id}@example.com`])));
    // The first went alone; the 29 that came while it ran went in one statement.
    expect(sent.map((s) => s.params)).toEqual([2, 58]);
    expect(await stored()).toEqual(ids);
  });

  it("fails only the rows a batch failed on, and stores the others", async () => {
    await batches.insert([1, "taken@example.com"]);
    sent.length = 0;
    const outcomes = await Promise.allSettled([
      batches.insert([2, "first@example.com"]),
      batches.insert([3, "taken@example.com"]),
      batches.insert([4, "second@example.com"]),
      batches.insert([5, "no-at-sign"]),
      batches.insert([6, "third@example.com"]),
    ]);
    expect(outcomes.map((o) => o.status)).toEqual([
      "fulfilled",
      "rejected",
      "fulfilled",
      "rejected",
      "fulfilled",
    ]);
    expect((outcomes[1] as PromiseRejectedResult).reason).toMatchObject({ code: "23505" });
    expect((outcomes[3] as PromiseRejectedResult).reason).toMatchObject({
      code: "23514",
      constraint: "batch_rows_email_check",
    });
    expect(await stored()).toEqual([1, 2, 4, 6]);
    // The first alone; the four after it together, which failed; then each of those alone.
    expect(sent.map((s) => s.params)).toEqual([2, 8, 2, 2, 2, 2]);
  });
});

it("fails every row of a batch with an error that is not a row's, and retries none alone", async () => {
  // A database closed under the batches: every statement fails, and not because of its rows.
  const closed = await openTestPglite();
  await closed.close();
  const sent: { sql: string; params: number }[] = [];
  const down = new InsertBatches(counting(closed, sent), "batch_rows", ["id", "email"]);
  const outcomes = await Promise.allSettled(
    [1, 2, 3].map((id) => down.insert([id, `row${id}@example.com`])),
  );
  expect(outcomes.map((o) => o.status)).toEqual(["rejected", "rejected", "rejected"]);
  expect(sent.map((s) => s.params)).toEqual([2, 4]);
});

/** `db`, with each statement it is sent noted in `sent` first. */
function counting(db: Database, sent: { sql: string; params: number }[]): Database {
  return Object.assign(Object.create(db) as Database, {
    query: (sql: string, params: unknown[] = []) => {
      sent.push({ sql, params: params.length });
      return db.query(sql, params);
    },
  });
}
