// Chooses the driver: PostgreSQL when DATABASE_URL is set, embedded PGlite in DATA_DIR otherwise
// (a new folder starts from the build's template: template.ts). Then applies the migrations.
// The server that holds an embedded database's folder also answers `npm run backup` on a local
// socket (backup/channel.ts): a consistent copy needs the one process that has the files open.
import { serveBackups } from "./backup/channel.ts";
import { backupOf } from "./backup/snapshot.ts";
import type { Database } from "./database.ts";
import { makeDataDir, PGLITE_DIR } from "./data-dir.ts";
import { lockDataDir } from "./data-dir-lock.ts";
import { migrate, readMigrations } from "./migrate.ts";
import { openPglite, type PgliteDatabase } from "./pglite.ts";
import { templateFor } from "./template.ts";

export async function openDatabase(
  config: {
    /** DATABASE_URL: PostgreSQL's address; unset, PGlite in the data folder. */
    databaseUrl: string | undefined;
    dataDir: string;
  },
  /** Told what works less than it should (no backup socket) without stopping the start. */
  onWarning: (message: string) => void = () => {},
): Promise<Database> {
  const migrations = await readMigrations();
  let db: Database;
  let pglite: PgliteDatabase | undefined;
  if (config.databaseUrl) {
    // Loaded only when used (node-postgres takes ≈ 40 ms to load).
    const { openPostgres } = await import("./postgres.ts");
    db = await openPostgres(config.databaseUrl);
  } else {
    const dir = await makeDataDir(config.dataDir, PGLITE_DIR);
    const unlock = await lockDataDir(config.dataDir);
    try {
      const opened = await openPglite(dir, templateFor(dir, migrations));
      pglite = opened;
      db = { ...opened, close: () => opened.close().finally(unlock) };
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
  return pglite ? withBackups(db, pglite, config.dataDir, onWarning) : db;
}

/** The embedded database, answering backup requests until it closes. */
async function withBackups(
  db: Database,
  pglite: PgliteDatabase,
  dataDir: string,
  onWarning: (message: string) => void,
): Promise<Database> {
  const backups = await serveBackups(dataDir, () =>
    backupOf(dataDir, pglite, "running server"),
  ).catch((err: unknown) => {
    onWarning(`npm run backup cannot copy this running server: ${(err as Error).message}`);
    return undefined;
  });
  if (!backups) return db;
  return { ...db, close: () => backups.close().finally(() => db.close()) };
}
