// Makes the template of a new embedded database (see template.ts): a database created and
// migrated in a scratch folder, then dumped as PGlite's gzipped tarball. Build time and tests only.
import { PGlite } from "@electric-sql/pglite";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { migrate, type Migration } from "./migrate.ts";
import { PGLITE_OPTIONS } from "./pglite-options.mjs";
import { openPglite } from "./pglite.ts";

/** Writes the template of `migrations` to `file` (atomically: a reader sees all of it or none). */
export async function makeTemplate(migrations: Migration[], file: string): Promise<void> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "revwise-template-"));
  try {
    const db = await openPglite(dir);
    await migrate(db, migrations);
    await db.close();
    const pg = await PGlite.create(dir, PGLITE_OPTIONS);
    const tarball = Buffer.from(await (await pg.dumpDataDir("gzip")).arrayBuffer());
    await pg.close();
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(`${file}.tmp`, tarball);
    fs.renameSync(`${file}.tmp`, file);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
