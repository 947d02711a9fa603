// `npm run backup -- FILE`: a consistent copy of the embedded database in DATA_DIR, whether a
// server is running on it or not. Running, the server makes it (channel.ts) and keeps serving;
// stopped, this process takes the data folder's lock (so no server starts meanwhile), opens the
// database and copies it the same way. The copy is read back whole before FILE is written, and
// FILE appears at once (written aside, then renamed), readable by its owner alone.
import fs from "node:fs";
import fsp from "node:fs/promises";
import path from "node:path";
import { PGLITE_DIR } from "../data-dir.ts";
import { DataDirInUseError, lockDataDir } from "../data-dir-lock.ts";
import { openPglite } from "../pglite.ts";
import { BackupRefused, decodeBackup, type BackupHeader } from "./backup-file.ts";
import { requestBackup } from "./channel.ts";
import { backupOf } from "./snapshot.ts";

export type BackupMade = { file: string; bytes: number; header: BackupHeader };

/** True when `inner` is `outer` or inside it. */
const within = (outer: string, inner: string) => {
  const rel = path.relative(outer, inner);
  return rel === "" || (!rel.startsWith("..") && !path.isAbsolute(rel));
};

async function copyOf(dataDir: string): Promise<Buffer> {
  let unlock: () => Promise<void>;
  try {
    unlock = await lockDataDir(dataDir);
  } catch (err) {
    if (err instanceof DataDirInUseError) return requestBackup(dataDir);
    throw err;
  }
  try {
    const db = await openPglite(path.join(dataDir, PGLITE_DIR));
    try {
      return await backupOf(dataDir, db, "stopped data folder");
    } finally {
      await db.close();
    }
  } finally {
    await unlock();
  }
}

export async function backupDataDir(dataDir: string, file: string): Promise<BackupMade> {
  const target = path.resolve(file);
  if (within(dataDir, target))
    throw new BackupRefused(`${file} is inside DATA_DIR (${dataDir}): write the backup elsewhere`);
  if (!fs.existsSync(path.join(dataDir, PGLITE_DIR, "PG_VERSION")))
    throw new BackupRefused(`DATA_DIR ${dataDir} holds no embedded database to back up`);
  if (!fs.existsSync(path.dirname(target)))
    throw new BackupRefused(`${file} cannot be written: its folder does not exist`);

  const bytes = await copyOf(dataDir);
  const { header } = await decodeBackup(bytes, "the copy made");
  const partial = `${target}.partial-${process.pid}`;
  try {
    await fsp.writeFile(partial, bytes, { mode: 0o600 });
    await fsp.rename(partial, target);
  } catch (err) {
    await fsp.rm(partial, { force: true });
    throw err;
  }
  return { file: target, bytes: bytes.length, header };
}
