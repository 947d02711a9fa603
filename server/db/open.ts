// Chooses the driver: PostgreSQL when DATABASE_URL is set, embedded PGlite in DATA_DIR otherwise
// (a new folder starts from the build's template: template.ts). Then applies the migrations.
// The server that holds an embedded database's folder also answers `npm run backup` on a local
// socket (backup/channel.ts): a consistent copy needs the one process that has the files open.
import { serveBackups } from "./backup/channel.ts";
import { backupOf } from "./backup/snapshot.ts";
import type { Database } from "./database.ts";
import { makeDataDir, PGLITE_DIR } from "./data-dir.ts";
import { lockDataDir } from "./data-dir-lock.ts";
import { migrate, readMigrations, type Migration } from "./migrate.ts";
import { openPglite, type PgliteDatabase } from "./pglite.ts";
import { templateFor } from "./template.ts";

type DatabaseConfig = {
  /** DATABASE_URL: PostgreSQL's address; unset, PGlite in the data folder. */
  databaseUrl: string | undefined;
  dataDir: string;
};

/** Opens the database and applies the migrations. */
export async function openDatabase(
  config: DatabaseConfig,
  /** Told what works less than it should (no backup socket) without stopping the start. */
  onWarning: (message: string) => void = () => {},
): Promise<Database> {
  return (await startDatabase(config, onWarning)).ready;
}

/**
 * Starts opening the database and returns as soon as its driver is under way (PGlite's thread
 * spawned and booting on a core of its own, PostgreSQL's first connection asked for), with
 * `ready`: the database once opened and migrated. The server loads its own modules between the
 * two: loading them holds the main thread for most of a second, and a step of the start still
 * waiting for its turn then (the migrations read, the folder locked) would wait for all of it,
 * so the database would boot after the modules instead of beside them. Fails at once when the
 * folder cannot be made or is in use.
 */
export async function startDatabase(
  config: DatabaseConfig,
  onWarning: (message: string) => void = () => {},
): Promise<{ ready: Promise<Database> }> {
  const migrations = await readMigrations();
  if (config.databaseUrl) {
    // Loaded only when used (node-postgres takes ≈ 40 ms to load).
    const { openPostgres } = await import("./postgres.ts");
    return { ready: openPostgres(config.databaseUrl).then((db) => migrated(db, migrations)) };
  }
  const dir = await makeDataDir(config.dataDir, PGLITE_DIR);
  const unlock = await lockDataDir(config.dataDir);
  let opening: Promise<PgliteDatabase>;
  try {
    // Spawns the database thread before its first await.
    opening = openPglite(dir, templateFor(dir, migrations));
  } catch (err) {
    await unlock();
    throw err;
  }
  const ready = (async () => {
    let pglite: PgliteDatabase;
    try {
      pglite = await opening;
    } catch (err) {
      await unlock();
      throw err;
    }
    const db = await migrated(
      { ...pglite, close: () => pglite.close().finally(unlock) },
      migrations,
    );
    return withBackups(db, pglite, config.dataDir, onWarning);
  })();
  return { ready };
}

/** The database once the migrations not yet applied are; closed when they fail. */
async function migrated(db: Database, migrations: Migration[]): Promise<Database> {
  try {
    await migrate(db, migrations);
  } catch (err) {
    await db.close().catch(() => {});
    throw err;
  }
  return db;
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
