// A test suite's own PostgreSQL database with every migration, for the suites that start server
// processes on it and read what they wrote.
import { afterAll, beforeAll } from "vitest";
import type { Database } from "../../server/db/database.ts";
import { migrate } from "../../server/db/migrate.ts";
import { openPostgres } from "../../server/db/postgres.ts";
import { createTestDatabase, type TestDatabase } from "./postgres.ts";

/**
 * A suite's own database with every migration, open for its tests (beforeAll) and dropped after
 * them (afterAll): `url` for the server processes it starts, `db` for what the tests read.
 */
export function useMigratedDatabase(): { readonly url: string; readonly db: Database } {
  let testDb: TestDatabase | undefined;
  let db: Database | undefined;
  beforeAll(async () => {
    testDb = await createTestDatabase();
    db = await openPostgres(testDb.url, 2);
    await migrate(db);
  });
  afterAll(async () => {
    await db?.close();
    await testDb?.drop();
  });
  return {
    get url() {
      return testDb!.url;
    },
    get db() {
      return db!;
    },
  };
}
