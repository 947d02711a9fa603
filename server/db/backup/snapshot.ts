// A backup of a data folder: the embedded database's files as PGlite copied them between two
// statements (pglite.ts `snapshot`), and every other file at the top of DATA_DIR (the generated
// signing secret, without which sealed secrets in the database cannot be opened), except the lock.
import fs from "node:fs/promises";
import path from "node:path";
import { PGLITE_DIR } from "../data-dir.ts";
import { LOCK_FILE } from "../data-dir-lock.ts";
import type { SnapshotEntry } from "../pglite-messages.ts";
import type { PgliteDatabase } from "../pglite.ts";
import { pgliteVersion } from "../template.ts";
import { encodeBackup, type BackupHeader } from "./backup-file.ts";

async function topLevelFiles(dataDir: string): Promise<SnapshotEntry[]> {
  const files: SnapshotEntry[] = [];
  for (const entry of await fs.readdir(dataDir, { withFileTypes: true })) {
    if (!entry.isFile() || entry.name === LOCK_FILE) continue;
    const file = path.join(dataDir, entry.name);
    const [data, stat] = await Promise.all([fs.readFile(file), fs.stat(file)]);
    files.push({ name: entry.name, mode: stat.mode & 0o777, data });
  }
  return files;
}

/** The backup file's bytes of `dataDir`, whose database `pglite` has open. */
export async function backupOf(
  dataDir: string,
  pglite: PgliteDatabase,
  source: BackupHeader["source"],
): Promise<Buffer> {
  const database = await pglite.snapshot();
  const made = new Date().toISOString();
  const version = database.find((e) => e.name === "PG_VERSION")?.data;
  const folder = await fs.stat(path.join(dataDir, PGLITE_DIR));
  const entries: SnapshotEntry[] = [
    ...(await topLevelFiles(dataDir)),
    { name: PGLITE_DIR, mode: folder.mode & 0o777 },
    ...database.map((e) => ({ ...e, name: `${PGLITE_DIR}/${e.name}` })),
  ];
  return encodeBackup(
    {
      made,
      source,
      pglite: pgliteVersion(),
      postgres: version ? Buffer.from(version).toString("utf8").trim() : "unknown",
    },
    entries,
  );
}
