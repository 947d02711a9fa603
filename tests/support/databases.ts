// The database of a test suite: embedded PGlite for what cannot differ between the engines, and
// both PGlite and a real PostgreSQL server for what can (SQL, migrations, locking and concurrency,
// query plans, the engine adapters). Which files run on both, and why, is listed and checked in
// server/db/engines.test.ts (docs/decisions/0043-tests-on-one-or-both-engines.md).
import { afterAll, beforeAll, describe } from "vitest";
import type { Database } from "../../server/db/database.ts";
import { openPglite } from "../../server/db/pglite.ts";
import { openPostgres } from "../../server/db/postgres.ts";
import { openTestPglite } from "./pglite.ts";
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

/** `fromScratch`: PGlite made by initdb alone, for the suites whose subject is migrating. */
type SuiteOptions = { fromScratch?: boolean };

function describeOn(
  kinds: readonly DatabaseKind[],
  name: string,
  fn: (ctx: DatabaseContext) => void,
  { fromScratch = false }: SuiteOptions = {},
) {
  for (const kind of kinds) {
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
          db = fromScratch ? await openPglite(undefined) : await openTestPglite();
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
 * describe(name) on the embedded engine: for a suite whose subject is the same on both engines
 * (HTTP, protocols, the server's own rules), which PGlite (PostgreSQL itself) answers as the
 * server does.
 */
export function describeWithDatabase(name: string, fn: (ctx: DatabaseContext) => void) {
  describeOn(["pglite"], name, fn);
}

/**
 * describe(name) twice: once on PGlite, once on PostgreSQL (skipped loudly when it is missing).
 * Only for the files server/db/engines.test.ts lists with the reason they need both.
 */
export function describeEachDatabase(name: string, fn: (ctx: DatabaseContext) => void): void;
export function describeEachDatabase(
  name: string,
  options: SuiteOptions,
  fn: (ctx: DatabaseContext) => void,
): void;
export function describeEachDatabase(
  name: string,
  ...args: [(ctx: DatabaseContext) => void] | [SuiteOptions, (ctx: DatabaseContext) => void]
) {
  const [options, fn] = args.length === 1 ? [{}, args[0]] : args;
  describeOn(["pglite", "postgres"], name, fn, options);
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
