// Chooses the driver: PostgreSQL when DATABASE_URL is set, embedded PGlite in DATA_DIR otherwise.
import fs from "node:fs/promises";
import path from "node:path";
import type { Config } from "../config.ts";
import type { Database } from "./database.ts";
import { lockDataDir } from "./data-dir-lock.ts";
import { migrate } from "./migrate.ts";
import { openPglite } from "./pglite.ts";
import { openPostgres } from "./postgres.ts";

export async function openDatabase(
  config: Pick<Config, "databaseUrl" | "dataDir">,
): Promise<Database> {
  let db: Database;
  if (config.databaseUrl) {
    db = await openPostgres(config.databaseUrl);
  } else {
    const dir = path.join(config.dataDir, "pglite");
    await fs.mkdir(dir, { recursive: true });
    const unlock = await lockDataDir(config.dataDir);
    try {
      const pglite = await openPglite(dir);
      db = { ...pglite, close: () => pglite.close().finally(unlock) };
    } catch (err) {
      await unlock();
      throw err;
    }
  }
  try {
    await migrate(db);
  } catch (err) {
    await db.close().catch(() => {});
    throw err;
  }
  return db;
}
