// The embedded database's lock under races: servers started at the same moment on one data dir,
// whose lock file was left behind by a crash: naming a process that is gone, or one that is alive
// but is no Revwise server (pids are reused).
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { tempDir } from "../support/app.ts";
import { startServer } from "../support/server-process.ts";

const STARTS = 3;
const TRIALS = 3;

/** The pid of a process that has exited. */
const deadPid = () => spawnSync("true").pid!;

describe("embedded database lock", () => {
  it.each(Array.from({ length: TRIALS }, (_, trial) => trial))(
    `lets exactly one of ${STARTS} simultaneous starts on a stale-locked data dir listen (trial %i)`,
    async (trial) => {
      const dataDir = tempDir();
      // Left by a crash: a pid that is gone, or one reused by an unrelated live process (this one).
      const stalePid = trial % 2 === 0 ? process.pid : deadPid();
      fs.writeFileSync(path.join(dataDir, "server.lock"), `${stalePid}\n`);
      const env = { DATA_DIR: dataDir, SITE_DIR: path.join(dataDir, "no-site") };
      const starts = await Promise.allSettled(
        Array.from({ length: STARTS }, () => startServer(env)),
      );
      const winners = starts.flatMap((s) => (s.status === "fulfilled" ? [s.value] : []));
      const losers = starts.flatMap((s) => (s.status === "rejected" ? [String(s.reason)] : []));
      try {
        expect(winners).toHaveLength(1);
        for (const reason of losers)
          expect(reason).toContain(
            `the embedded database in ${dataDir} is in use by another Revwise server`,
          );
        expect((await fetch(`${winners[0]!.url}/auth/v1/health`)).status).toBe(200);
      } finally {
        for (const w of winners) await w.stop("SIGKILL");
      }
    },
  );
});
