// `npm run backup -- FILE`: a consistent copy of this environment's embedded database (DATA_DIR)
// in FILE, made by the running server without stopping it, or from the stopped data folder.
import { backupDataDir } from "../server/db/backup/make-backup.ts";
import { runDataDirCommand } from "./data-dir-command.ts";

await runDataDirCommand("backup", async (file, dataDir) => {
  const made = await backupDataDir(dataDir, file);
  const mb = (made.bytes / 1e6).toFixed(1);
  return `${made.file}: a backup of ${dataDir} as of ${made.header.made} (${mb} MB, from the ${made.header.source})`;
});
