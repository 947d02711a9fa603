// A new embedded database for a test, in memory.
import fs from "node:fs";
import type { Database } from "../../server/db/database.ts";
import { readMigrations } from "../../server/db/migrate.ts";
import { openPglite } from "../../server/db/pglite.ts";
import { templateFile } from "../../server/db/template.ts";

/**
 * A new embedded database in memory, started from the build's template (every migration applied,
 * server/db/template.ts) when there is one for this tree's migrations: about a second instead of
 * the four that PostgreSQL's initdb and the migrations take. server/db/template.test.ts proves
 * the two give the same schema; the server project's global set-up makes the template when the
 * build has not (tests/support/server-setup.ts).
 */
export async function openTestPglite(): Promise<Database> {
  const template = templateFile(await readMigrations());
  return openPglite(undefined, fs.existsSync(template) ? template : undefined);
}
