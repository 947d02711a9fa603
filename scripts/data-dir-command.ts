// What `npm run backup` and `npm run restore` share: one FILE argument, the embedded database
// of this environment's DATA_DIR (never DATABASE_URL's PostgreSQL, whose own tools back it up),
// and one line on failure, with exit code 1: a refusal's own words, or what went wrong, never a
// stack.
import { ConfigError, loadConfig } from "../server/config.ts";
import { BackupRefused } from "../server/db/backup/backup-file.ts";

const oneLine = (text: string) => text.replace(/\s*\n\s*/g, " ").trim();

export async function runDataDirCommand(
  command: "backup" | "restore",
  run: (file: string, dataDir: string) => Promise<string>,
): Promise<never> {
  const args = process.argv.slice(2);
  if (args.length !== 1 || args[0]!.startsWith("-")) {
    console.error(`usage: npm run ${command} -- FILE`);
    process.exit(2);
  }
  if (process.env.DATABASE_URL) {
    console.error(
      `DATABASE_URL is set: this deployment's data is in PostgreSQL, which npm run ${command} does not touch; use PostgreSQL's own tools (pg_dump and pg_restore, or pg_basebackup), as the README's "Backups and restore" says`,
    );
    process.exit(1);
  }
  try {
    const config = loadConfig({ NODE_ENV: "development", LOG_LEVEL: "warn", ...process.env });
    console.log(await run(args[0]!, config.dataDir));
    process.exit(0);
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    console.error(
      oneLine(
        err instanceof BackupRefused || err instanceof ConfigError
          ? message
          : `the ${command} failed: ${message}`,
      ),
    );
    process.exit(1);
  }
}
