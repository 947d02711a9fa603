// `npm run restore -- FILE`: a backup made by `npm run backup` put into this environment's
// DATA_DIR, which must be empty (or not exist yet); then start the server on it.
import { restoreDataDir } from "../server/db/backup/restore.ts";
import { runDataDirCommand } from "./data-dir-command.ts";

await runDataDirCommand("restore", async (file, dataDir) => {
  const restored = await restoreDataDir(file, dataDir);
  return `${dataDir}: restored from ${file}, a backup as of ${restored.header.made} (${restored.files} files); start the server on it`;
});
