// Embedded PostgreSQL (PGlite) in a data folder: the default, nothing to install.
import { PGlite } from "@electric-sql/pglite";
import type { Database, Queryable, Row } from "./database.ts";

export async function openPglite(dataDir: string | undefined): Promise<Database> {
  const pg = await PGlite.create(dataDir ?? "memory://");
  const run = (q: Pick<PGlite, "query" | "exec">): Queryable => ({
    async query<T extends Row>(sql: string, params?: readonly unknown[]) {
      const result = await q.query<T>(sql, params as unknown[] | undefined);
      return result.rows;
    },
    async exec(sql: string) {
      await q.exec(sql);
    },
  });
  return {
    kind: "pglite",
    ...run(pg),
    transaction: (fn) => pg.transaction((tx) => fn(run(tx))),
    close: () => pg.close(),
  };
}
