// One server per embedded database: two processes writing the same PGlite files would corrupt
// them. The lock is the kernel's: an exclusive open-file-description lock (fcntl F_OFD_SETLK on
// Linux, flock on macOS) on DATA_DIR/server.lock, taken atomically and released by the kernel
// when the process ends however it ends (exit, crash, SIGKILL). So exactly one of any number of
// servers started at once wins, and no lock is ever stale: nothing to judge by pids or ages.
// The file holds the holder's pid for the message only, and is never deleted (a process that
// opened the old file could lock it while another locks a new one).
import fs from "node:fs/promises";
import { createRequire } from "node:module";
import path from "node:path";

const require = createRequire(import.meta.url);
const { tryLock } = require("fs-native-extensions") as {
  /** true when the lock of the whole file was granted to this file descriptor. */
  tryLock(fd: number): boolean;
};

export const LOCK_FILE = "server.lock";

/** The lock is held by another process (a server, or a backup or restore under way). */
export class DataDirInUseError extends Error {}

/** Takes the lock of `dir` or throws, naming the process that holds it; resolves to its release. */
export async function lockDataDir(dir: string): Promise<() => Promise<void>> {
  const file = path.join(dir, LOCK_FILE);
  const handle = await fs.open(file, "a+");
  try {
    if (!tryLock(handle.fd)) {
      const owner = Number.parseInt(await handle.readFile("utf8"), 10);
      throw new DataDirInUseError(
        `the embedded database in ${dir} is in use by another Revwise server${owner > 0 ? ` (pid ${owner})` : ""}; stop it, or give this one its own DATA_DIR`,
      );
    }
    await handle.truncate(0);
    await handle.write(`${process.pid}\n`);
  } catch (err) {
    await handle.close(); // releases the lock too, when it was taken
    throw err;
  }
  // Closing the descriptor releases the lock.
  return () => handle.close();
}
