// DATA_DIR (and a folder in it) made when missing, or an error that names DATA_DIR. Parents are
// made one level at a time, each tried twice at most: Node's recursive mkdir retries forever
// where the system refuses a folder without saying it exists (under /proc).
import fs from "node:fs/promises";
import path from "node:path";

/** The embedded database's own folder inside DATA_DIR. */
export const PGLITE_DIR = "pglite";

export async function makeDataDir(dataDir: string, sub = "."): Promise<string> {
  const dir = path.join(dataDir, sub);
  try {
    // DATA_DIR first, so that what is wrong with it (a file there, say) is said of it.
    await makeDir(dataDir);
    if (dir !== path.normalize(dataDir)) await makeDir(dir);
    return dir;
  } catch (err) {
    throw new Error(`DATA_DIR ${dataDir} cannot be used: ${(err as Error).message}`, {
      cause: err,
    });
  }
}

async function makeDir(dir: string): Promise<void> {
  const made = await mkdir(dir);
  if (made !== "missing parent") return;
  const parent = path.dirname(dir);
  if (parent === dir) throw new Error(`${dir} cannot be made`);
  await makeDir(parent);
  if ((await mkdir(dir)) === "missing parent") throw new Error(`${dir} cannot be made`);
}

/** Makes one folder; a folder already there (another process's, say) will do. */
async function mkdir(dir: string): Promise<"made" | "missing parent"> {
  try {
    await fs.mkdir(dir);
    return "made";
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === "ENOENT") return "missing parent";
    if (code !== "EEXIST") throw err;
    if (!(await fs.stat(dir)).isDirectory())
      throw new Error(`${dir} is not a folder`, { cause: err });
    return "made";
  }
}
