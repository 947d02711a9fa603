// npm run bench:api: newsletter inserts per second through POST /rest/v1/newsletter_subscribers
// (the real server: key check, validation, rate limit, headers, logging) next to a bare Fastify
// route doing the same insert on the same kind of database, measured in the same run, on
// embedded PGlite and on PostgreSQL; and the same server with metrics on (METRICS_PORT, /metrics
// scraped as Prometheus does) next to it with them off, PAIRS pairs of servers in rounds, each
// slice alone (metricsRounds: the figure is the median pair's ratio plus a scrape's share, beside
// the CPU per insert and the spread among the "off" servers). Targets: ≥ 85 % of the bare route;
// metrics cost ≤ 3 % of inserts/s.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { createTestDatabase, postgresAvailable } from "../tests/support/postgres.ts";
import { sharedDeploymentEnv, startServer } from "../tests/support/server-process.ts";
import { freePort } from "../tests/support/ports.ts";
import {
  alone,
  pinBenchmark,
  pinServer,
  fmt,
  load,
  metricsCost,
  scrapeCpuMs,
  scrapeOnce,
  startPairs,
  startBareServer,
  table,
  uniqueInsert,
  metricsRounds,
  type LoadResult,
} from "./lib.ts";

const DURATION = Number(process.env.BENCH_SECONDS ?? 10);
const CONNECTIONS = 10;
/** Rounds of the pairs of servers (metricsRounds). */
const ROUNDS = 3;
/** Servers with metrics on, and as many with them off, paired (metricsRounds). */
const PAIRS = 4;

/** Each server on its own database of the engine, so neither sees the other's rows or files. */
type Engine = {
  name: string;
  env(): Promise<{ env: Record<string, string>; drop(): Promise<void> }>;
};

async function measure(engine: Engine): Promise<Record<string, string | number>[]> {
  const dbs: { drop(): Promise<void> }[] = [];
  const database = async () => {
    const db = await engine.env();
    dbs.push(db);
    return db.env;
  };
  // Metrics off and on, PAIRS servers each (two identical processes' CPU per insert differs by
  // several per cent on the 2-core VM: the "off" ones measure that spread).
  const server = async (metrics: boolean) => {
    const port = metrics ? await freePort() : undefined;
    const started = await startServer(
      {
        ...(await database()),
        TRUST_PROXY: "loopback",
        LOG_LEVEL: "info",
        ...(port ? { METRICS_PORT: String(port) } : {}),
      },
      undefined,
      { keepLogs: false },
    );
    pinServer(started.child.pid!);
    return { ...started, metricsUrl: port ? `http://127.0.0.1:${port}/metrics` : "" };
  };
  const { off, on } = await startPairs(PAIRS, server);
  const bare = await startBareServer("bench/bare-insert-server.ts", {
    env: await database(),
    pinned: true,
  });
  const run = (url: string, extra: Record<string, string>, prefix: string, seconds: number) =>
    load({
      url,
      method: "POST",
      connections: CONNECTIONS,
      durationSeconds: seconds,
      headers: { "content-type": "application/json", ...extra },
      setupRequest: uniqueInsert(prefix) as never,
    });
  // Each server's own key: on PGlite each has a data folder, and a JWT secret, of its own.
  const headersFor = (key: string) => ({
    apikey: key,
    authorization: `Bearer ${key}`,
    "content-profile": "public",
  });
  const runOurs = (s: (typeof off)[number], prefix: string, seconds: number) =>
    run(`${s.url}/rest/v1/newsletter_subscribers`, headersFor(s.anonKey), prefix, seconds);
  // Our servers' timers are stopped while the bare route is measured (alone).
  const runBare = (prefix: string, seconds: number) =>
    alone([...off, ...on], () => run(`${bare.url}/insert`, {}, prefix, seconds));
  for (const [i, s] of [...off, ...on].entries()) await runOurs(s, `warm-${i}`, 2);
  await runBare("warm-bare", 2);
  // Bare first and last; between, ROUNDS rounds of the pairs (metricsRounds), so a machine
  // that speeds up or slows down during the run weighs on each alike, each "on" server scraped
  // before each of its slices. The CPU per insert counts PGlite's thread, which is in the process.
  const bareRuns = [await runBare("bare-1", DURATION / 2)];
  const compared = await metricsRounds({
    off,
    on,
    rounds: ROUNDS,
    run: (s, label) => runOurs(s, label, DURATION / 4),
    before: async (s) => {
      if (s.metricsUrl) await scrapeOnce(s.metricsUrl);
    },
  });
  bareRuns.push(await runBare("bare-2", DURATION / 2));
  const scrapeMs = await scrapeCpuMs(on[0]!.child.pid!, on[0]!.metricsUrl);
  for (const s of [...off, ...on]) await s.stop();
  bare.close();
  for (const db of dbs) await db.drop();

  const mean = (runs: LoadResult[]) => ({
    rps: runs.reduce((sum, r) => sum + r.rps, 0) / runs.length,
    p50: Math.max(...runs.map((r) => r.p50)),
    p99: Math.max(...runs.map((r) => r.p99)),
    failed: runs.reduce((sum, r) => sum + r.non2xx + r.errors, 0),
  });
  const bareRun = mean(bareRuns);
  const offRun = mean(compared.offRuns);
  const onRun = mean(compared.onRuns);
  const cost = metricsCost(compared.medianRatio, scrapeMs);
  const { offMs, onMs } = compared;
  const row = (endpoint: string, r: ReturnType<typeof mean>) => ({
    engine: engine.name,
    endpoint,
    "inserts/s": fmt(r.rps),
    "p50 ms": r.p50,
    "p99 ms": r.p99,
    "non-2xx": r.failed,
  });
  const note = (endpoint: string, value: string) => ({
    engine: engine.name,
    endpoint,
    "inserts/s": value,
    "p50 ms": "",
    "p99 ms": "",
    "non-2xx": "",
  });
  return [
    row("bare Fastify route", bareRun),
    row("POST /rest/v1/newsletter_subscribers (metrics off)", offRun),
    note("ratio", `${fmt((offRun.rps / bareRun.rps) * 100, 1)} %`),
    row("the same with metrics on", onRun),
    note(
      "each pair's on / off ratio",
      compared.ratios.map((r) => `${fmt(r * 100, 0)} %`).join(" "),
    ),
    note(cost.figure, `${cost.value} ${cost.ok === "yes" ? "" : "(over 3 %)"}`.trim()),
    note(
      "server CPU per insert, on / off (median pair)",
      `${fmt((compared.medianCpuRatio - 1) * 100, 1)} % (all slices: ${fmt(onMs, 3)} / ${fmt(offMs, 3)} ms)`,
    ),
    note(
      `spread of ${PAIRS} identical servers (off)`,
      `${compared.offEachMs.map((ms) => fmt(ms, 3)).join(" / ")} ms (${fmt(compared.offSpread * 100, 1)} %)`,
    ),
  ];
}

console.log(
  `Revwise API benchmark · ${os.cpus().length} cores · ${CONNECTIONS} connections · ${DURATION}s per run\n`,
);
// The benchmark (autocannon, the generator) on core 0, every server measured on core 1 (lib.ts,
// onCore); PostgreSQL's own processes where the scheduler puts them.
pinBenchmark();
const rows: Record<string, string | number>[] = [];
const pglite: Engine = {
  name: "PGlite",
  async env() {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "revwise-bench-api-"));
    return {
      env: { DATA_DIR: dataDir, SITE_DIR: path.join(dataDir, "no-site") },
      drop: async () => fs.rmSync(dataDir, { recursive: true, force: true }),
    };
  },
};
const postgres: Engine = {
  name: "PostgreSQL",
  async env() {
    const database = await createTestDatabase();
    const { env, drop } = await pglite.env();
    return {
      env: { ...env, ...sharedDeploymentEnv(database.url) },
      drop: async () => {
        await database.drop();
        await drop();
      },
    };
  },
};
rows.push(...(await measure(pglite)));
if (await postgresAvailable()) rows.push(...(await measure(postgres)));
table(rows);
console.log(
  "\nTargets: the REST insert reaches ≥ 85 % of the bare route on each engine; metrics cost ≤ 3 %.",
);
