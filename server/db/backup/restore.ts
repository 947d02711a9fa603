// `npm run restore -- FILE`: a backup made by `npm run backup` put back into an empty DATA_DIR.
// The file is read whole and checked first (backup-file.ts); a folder that holds anything is
// refused untouched; the data folder's lock is held throughout, so no server starts on a half
// restored folder; the database is then opened once (PostgreSQL replays its log, as after a
// crash at the moment of the copy) to prove it opens and that this release knows its schema.
// When any of that fails, the folder is left as empty as it was found.
import fsp from "node:fs/promises";
import path from "node:path";
import { makeDataDir, PGLITE_DIR } from "../data-dir.ts";
import { DataDirInUseError, LOCK_FILE, lockDataDir } from "../data-dir-lock.ts";
import { appliedVersions, readMigrations } from "../migrate.ts";
import type { SnapshotEntry } from "../pglite-messages.ts";
import { openPglite } from "../pglite.ts";
import { BackupRefused, decodeBackup, type BackupHeader } from "./backup-file.ts";

export type Restored = { header: BackupHeader; files: number; bytes: number };

/** What a folder holds besides the lock; undefined when there is no folder. */
async function contents(dir: string): Promise<string[] | undefined> {
  try {
    return (await fsp.readdir(dir)).filter((name) => name !== LOCK_FILE);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw err;
  }
}

function refuseNonEmpty(dataDir: string, held: string[]): BackupRefused {
  const shown = held.slice(0, 3).join(", ") + (held.length > 3 ? ", …" : "");
  return new BackupRefused(
    `DATA_DIR ${dataDir} is not empty (it holds ${shown}): restore only into an empty folder`,
  );
}

/** A restored entry lands in the data folder: a top-level file, or in the database's folder. */
function placeable(entry: SnapshotEntry): boolean {
  const [first, ...rest] = entry.name.split("/");
  if (first === PGLITE_DIR) return rest.length > 0 || entry.data === undefined;
  return rest.length === 0 && first !== LOCK_FILE && entry.data !== undefined;
}

async function readBackup(file: string) {
  let bytes: Buffer;
  try {
    bytes = await fsp.readFile(file);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === "ENOENT") throw new BackupRefused(`${file} does not exist`);
    if (code === "EISDIR") throw new BackupRefused(`${file} is a folder, not a backup file`);
    throw err;
  }
  const backup = await decodeBackup(bytes, file);
  const unplaceable = backup.entries.find((e) => !placeable(e));
  if (unplaceable)
    throw new BackupRefused(
      `${file} holds an entry that cannot be restored: ${JSON.stringify(unplaceable.name)}`,
    );
  if (!backup.entries.some((e) => e.name === `${PGLITE_DIR}/PG_VERSION` && e.data))
    throw new BackupRefused(`${file} holds no embedded database`);
  return { ...backup, bytes: bytes.length };
}

async function writeEntries(dataDir: string, entries: readonly SnapshotEntry[]): Promise<void> {
  for (const entry of entries) {
    const target = path.join(dataDir, ...entry.name.split("/"));
    if (entry.data === undefined) {
      await fsp.mkdir(target, { recursive: true, mode: entry.mode });
    } else {
      await fsp.mkdir(path.dirname(target), { recursive: true });
      await fsp.writeFile(target, entry.data, { mode: entry.mode, flag: "wx" });
    }
    await fsp.chmod(target, entry.mode); // exactly as it was, whatever this process's umask
  }
}

/** Opens the restored database once; refuses a schema newer than this release's migrations. */
async function openRestored(dataDir: string, file: string, header: BackupHeader): Promise<void> {
  let db;
  try {
    db = await openPglite(path.join(dataDir, PGLITE_DIR));
  } catch (err) {
    throw new BackupRefused(
      `the database in ${file} does not open (made by PGlite ${header.pglite}): ${(err as Error).message}`,
    );
  }
  try {
    const known = new Set((await readMigrations()).map((m) => m.version));
    const unknown = (await appliedVersions(db)).filter((v) => !known.has(v)).sort((a, b) => a - b);
    if (unknown.length)
      throw new BackupRefused(
        `${file} was made by a newer release (its schema has migration ${unknown.join(", ")}, which this one does not know): restore it with that release`,
      );
  } finally {
    await db.close();
  }
}

export async function restoreDataDir(file: string, dataDir: string): Promise<Restored> {
  const backup = await readBackup(file);
  const before = await contents(dataDir);
  if (before?.length) throw refuseNonEmpty(dataDir, before);
  const lockExisted = before !== undefined && (await fsp.readdir(dataDir)).includes(LOCK_FILE);

  await makeDataDir(dataDir);
  let unlock: () => Promise<void>;
  try {
    unlock = await lockDataDir(dataDir);
  } catch (err) {
    if (err instanceof DataDirInUseError) throw new BackupRefused(err.message);
    throw err;
  }
  // What this restore made is removed when it fails; what someone else put there meanwhile is not.
  let undo: "nothing" | "contents" | "done" = "nothing";
  try {
    const now = await contents(dataDir);
    if (now?.length) throw refuseNonEmpty(dataDir, now); // filled since it was looked at
    undo = "contents";
    await writeEntries(dataDir, backup.entries);
    await openRestored(dataDir, file, backup.header);
    undo = "done";
  } finally {
    if (undo === "contents")
      for (const name of (await contents(dataDir)) ?? [])
        await fsp.rm(path.join(dataDir, name), { recursive: true, force: true });
    await unlock();
    if (undo !== "done" && (await contents(dataDir))?.length === 0) {
      if (before === undefined) await fsp.rm(dataDir, { recursive: true, force: true });
      else if (!lockExisted) await fsp.rm(path.join(dataDir, LOCK_FILE), { force: true });
    }
  }
  return {
    header: backup.header,
    files: backup.entries.filter((e) => e.data).length,
    bytes: backup.bytes,
  };
}
