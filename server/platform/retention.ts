// Deletions of what is kept for a limited time (the privacy policy's table): each is run by every
// instance once at start and then hourly. Each is a DELETE any instance may run at any time, a
// second run changing nothing; one that fails is logged and run again at the next hour.
import type { FastifyInstance } from "fastify";
import fp from "fastify-plugin";
import type { Queryable } from "../db/database.ts";
import { Chore } from "./chore.ts";

type Deletion = {
  /** What goes, as the log names it ("leads past their keeping time"). */
  what: string;
  /** Deletes what is due; how many rows went. */
  run(db: Queryable): Promise<number>;
};

const EVERY_MS = 3_600_000;

/** Rows a deletion removes per statement: a first run over years of rows holds no lock for long. */
const DELETION_BATCH = 1000;

/**
 * Deletes at most `limit` rows of `table` (schema-qualified, with an `id`) that meet `condition`
 * ($1 in it is `before`); how many went. One statement: rows that meet it twice are deleted once.
 */
export async function deleteBatchBefore(
  q: Queryable,
  table: string,
  condition: string,
  before: Date,
  limit: number,
): Promise<number> {
  const [row] = await q.query<{ deleted: number }>(
    `WITH gone AS (
       DELETE FROM ${table} WHERE ${condition} AND id IN (
         SELECT id FROM ${table} WHERE ${condition} LIMIT $2
       ) RETURNING 1
     ) SELECT count(*)::int AS deleted FROM gone`,
    [before, limit],
  );
  return row!.deleted;
}

/**
 * Runs `batch` (deleting at most DELETION_BATCH rows, answering how many) until one deletes fewer;
 * how many in all.
 */
export async function inBatches(batch: (limit: number) => Promise<number>): Promise<number> {
  let total = 0;
  for (let deleted = DELETION_BATCH; deleted === DELETION_BATCH; total += deleted)
    deleted = await batch(DELETION_BATCH);
  return total;
}

export default fp<{ deletions: Deletion[] }>(
  async function retention(app: FastifyInstance, opts) {
    const log = app.log.child({ module: "retention" });
    const chore = new Chore(async () => {
      for (const { what, run } of opts.deletions) {
        try {
          const deleted = await run(app.db);
          if (deleted > 0) log.info({ deleted }, `deleted ${what}`);
        } catch (err) {
          log.warn({ err }, `could not delete ${what}; will try again`);
        }
      }
    }, EVERY_MS);
    app.addHook("onReady", async () => chore.start());
    app.addHook("onClose", () => chore.stop());
  },
  { name: "retention", dependencies: ["services"] },
);
