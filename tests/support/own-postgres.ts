// A PostgreSQL server of the test's own (initdb + pg_ctl on a free port in a temp dir), for the
// tests that stop and restart the database under a running Revwise server. Run as the `postgres`
// user when the tests run as root (initdb refuses root).
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { missing } from "./requirements.ts";
import { freePort } from "./ports.ts";

export type OwnPostgres = {
  url: string;
  stop(): void;
  start(): void;
  /** Stops the server and removes its files. */
  destroy(): void;
};

function binDir(): string | undefined {
  const root = "/usr/lib/postgresql";
  if (!fs.existsSync(root)) return undefined;
  const versions = fs.readdirSync(root).sort((a, b) => Number(b) - Number(a));
  return versions
    .map((v) => path.join(root, v, "bin"))
    .find((dir) => fs.existsSync(path.join(dir, "pg_ctl")));
}

/** undefined (loudly, or failing under CI=true) when PostgreSQL's binaries are not installed. */
export async function startOwnPostgres(): Promise<OwnPostgres | undefined> {
  const bin = binDir();
  if (!bin) {
    missing("PostgreSQL's server binaries", "apt-get install postgresql");
    return undefined;
  }
  const port = await freePort();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "revwise-pg-"));
  const asRoot = process.getuid?.() === 0;
  if (asRoot) execFileSync("chown", ["postgres:postgres", dir]);
  const run = (tool: string, args: string[]) => {
    const [cmd, argv] = asRoot
      ? ["runuser", ["-u", "postgres", "--", path.join(bin, tool), ...args]]
      : [path.join(bin, tool), args];
    execFileSync(cmd, argv, { stdio: "ignore", cwd: os.tmpdir() });
  };
  const data = path.join(dir, "data");
  run("initdb", ["-D", data, "-A", "trust", "-U", "postgres", "--no-sync"]);
  const options = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off`;
  const start = () =>
    run("pg_ctl", ["-D", data, "-o", options, "-l", path.join(dir, "log"), "-w", "start"]);
  const stop = () => run("pg_ctl", ["-D", data, "-m", "fast", "-w", "stop"]);
  start();
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    start,
    stop,
    destroy() {
      try {
        stop();
      } catch {
        // already stopped
      }
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
