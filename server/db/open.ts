// Chooses the driver: PostgreSQL when DATABASE_URL is set, embedded PGlite in DATA_DIR otherwise
// (a new folder starts from the build's template: template.ts). Then applies the migrations.
import type { Database } from "./database.ts";
import { makeDataDir } from "./data-dir.ts";
import { lockDataDir } from "./data-dir-lock.ts";
import { migrate, readMigrations } from "./migrate.ts";
import { openPglite } from "./pglite.ts";
import { templateFor } from "./template.ts";

export async function openDatabase(config: {
  /** DATABASE_URL: PostgreSQL's address; unset, PGlite in the data folder. */
  databaseUrl: string | undefined;
  dataDir: string;
}): Promise<Database> {
  const migrations = await readMigrations();
  let db: Database;
  if (config.databaseUrl) {
    // Loaded only when used (node-postgres takes ≈ 40 ms to load).
    const { openPostgres } = await import("./postgres.ts");
    db = await openPostgres(config.databaseUrl);
  } else {
    const dir = await makeDataDir(config.dataDir, "pglite");
    const unlock = await lockDataDir(config.dataDir);
    try {
      const pglite = await openPglite(dir, templateFor(dir, migrations));
      db = { ...pglite, close: () => pglite.close().finally(unlock) };
    } catch (err) {
      await unlock();
      throw err;
    }
  }
  try {
    await migrate(db, migrations);
  } catch (err) {
    await db.close().catch(() => {});
    throw err;
  }
  return db;
}
