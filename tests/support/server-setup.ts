// The server project's global set-up, run once before its files: the template of a new embedded
// database for this tree's migrations (server/db/template.ts), when `npm run build` has not made
// it yet, so that every test's PGlite starts from it (tests/support/pglite.ts).
import fs from "node:fs";
import { makeTemplate } from "../../server/db/make-template.ts";
import { readMigrations } from "../../server/db/migrate.ts";
import { templateFile } from "../../server/db/template.ts";

export default async function setup(): Promise<void> {
  const migrations = await readMigrations();
  const template = templateFile(migrations);
  if (!fs.existsSync(template)) await makeTemplate(migrations, template);
}
