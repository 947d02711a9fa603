// Runs the same database suite on embedded PGlite and on a real PostgreSQL server.
import { afterAll, beforeAll, describe } from "vitest";
import type { Database } from "../../server/db/database.ts";
import { openPglite } from "../../server/db/pglite.ts";
import { openPostgres } from "../../server/db/postgres.ts";
import { createTestDatabase, postgresAvailable, type TestDatabase } from "./postgres.ts";

export type DatabaseKind = "pglite" | "postgres";

export type DatabaseContext = {
  kind: DatabaseKind;
  /** The open database (available inside tests and hooks). */
  readonly db: Database;
  /** For PostgreSQL, the URL of this suite's own database. */
  readonly url: string | undefined;
};

const pgAvailable = await postgresAvailable();

/** describe(name) twice: once on PGlite, once on PostgreSQL (skipped loudly when it is missing). */
export function describeEachDatabase(name: string, fn: (ctx: DatabaseContext) => void) {
  for (const kind of ["pglite", "postgres"] as const) {
    describe.skipIf(kind === "postgres" && !pgAvailable)(`${name} [${kind}]`, () => {
      let db: Database | undefined;
      let testDb: TestDatabase | undefined;
      const ctx: DatabaseContext = {
        kind,
        get db() {
          if (!db) throw new Error("database not open yet");
          return db;
        },
        get url() {
          return testDb?.url;
        },
      };
      beforeAll(async () => {
        if (kind === "pglite") {
          db = await openPglite(undefined);
        } else {
          testDb = await createTestDatabase();
          db = await openPostgres(testDb.url, 4);
        }
      });
      afterAll(async () => {
        await db?.close();
        await testDb?.drop();
      });
      fn(ctx);
    });
  }
}

/**
 * The suite's database as another instance of the server opens it: PostgreSQL through a pool of
 * its own, PGlite (held by one process) through the suite's own handle, which `close` keeps open.
 */
export async function openAgain(
  ctx: DatabaseContext,
): Promise<{ db: Database; close(): Promise<void> }> {
  if (ctx.kind === "pglite") return { db: ctx.db, close: async () => {} };
  const db = await openPostgres(ctx.url!, 4);
  return { db, close: () => db.close() };
}
