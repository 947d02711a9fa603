// One server per embedded database: two processes writing the same PGlite files would corrupt
// them. The lock is a file holding the owner's pid; a lock whose process is gone (a crash, a
// SIGKILL) is taken over.
import fs from "node:fs/promises";
import path from "node:path";

function running(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === "EPERM"; // alive, owned by someone else
  }
}

/** Takes the lock of `dir` or throws, naming the process that holds it; resolves to its release. */
export async function lockDataDir(dir: string): Promise<() => Promise<void>> {
  const file = path.join(dir, "server.lock");
  for (;;) {
    try {
      await fs.writeFile(file, `${process.pid}\n`, { flag: "wx" });
      return () => fs.rm(file, { force: true });
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== "EEXIST") throw err;
    }
    const owner = Number.parseInt(await fs.readFile(file, "utf8").catch(() => ""), 10);
    if (owner > 0 && owner !== process.pid && running(owner)) {
      throw new Error(
        `the embedded database in ${dir} is in use by another Revwise server (pid ${owner}); stop it, or give this one its own DATA_DIR`,
      );
    }
    await fs.rm(file, { force: true }); // its server is gone
  }
}
