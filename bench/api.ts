// npm run bench:api: newsletter inserts per second through POST /rest/v1/newsletter_subscribers
// (the real server: key check, validation, rate limit, headers, logging) next to a bare Fastify
// route doing the same insert on the same kind of database, measured in the same run, on
// embedded PGlite and on PostgreSQL; and the same server with metrics on (METRICS_PORT, /metrics
// scraped as Prometheus does) next to it with them off. Targets: ≥ 85 % of the bare route; metrics
// cost ≤ 3 % of inserts/s.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { createTestDatabase, postgresAvailable } from "../tests/support/postgres.ts";
import { sharedDeploymentEnv, startServer } from "../tests/support/server-process.ts";
import { freePort } from "../tests/support/ports.ts";
import {
  fmt,
  load,
  metricsCost,
  scrapeEvery,
  startBareServer,
  table,
  uniqueInsert,
  type LoadResult,
  withCpu,
} from "./lib.ts";

const DURATION = Number(process.env.BENCH_SECONDS ?? 10);
const CONNECTIONS = 10;

/** Each server on its own database of the engine, so neither sees the other's rows or files. */
type Engine = {
  name: string;
  env(): Promise<{ env: Record<string, string>; drop(): Promise<void> }>;
};

async function measure(engine: Engine): Promise<Record<string, string | number>[]> {
  const oursDb = await engine.env();
  const bareDb = await engine.env();
  const metricsDb = await engine.env();
  const ours = await startServer({ ...oursDb.env, TRUST_PROXY: "loopback", LOG_LEVEL: "info" });
  const metricsPort = await freePort();
  const withMetrics = await startServer({
    ...metricsDb.env,
    TRUST_PROXY: "loopback",
    LOG_LEVEL: "info",
    METRICS_PORT: String(metricsPort),
  });
  const anonKey = /anon key: ([\w.-]+)/.exec(ours.logs.join("\n"))![1]!;
  const bare = await startBareServer("bench/bare-insert-server.ts", { env: bareDb.env });
  const run = (url: string, extra: Record<string, string>, prefix: string, seconds = DURATION) =>
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
  const oursHeaders = headersFor(anonKey);
  // CPU time per insert of each server, the scrapes included (PGlite's thread is in the process).
  const oursCpu = { cpuMs: 0, requests: 0 };
  const metricsCpu = { cpuMs: 0, requests: 0 };
  const runOurs = (prefix: string, seconds?: number) =>
    withCpu(ours.child.pid!, oursCpu, () =>
      run(`${ours.url}/rest/v1/newsletter_subscribers`, oursHeaders, prefix, seconds),
    );
  const runBare = (prefix: string, seconds?: number) =>
    run(`${bare.url}/insert`, {}, prefix, seconds);
  const runMetrics = (prefix: string, seconds?: number) =>
    withCpu(withMetrics.child.pid!, metricsCpu, () =>
      run(
        `${withMetrics.url}/rest/v1/newsletter_subscribers`,
        headersFor(withMetrics.anonKey),
        prefix,
        seconds,
      ),
    );
  await runOurs("warm-ours", 2);
  await runBare("warm-bare", 2);
  await runMetrics("warm-metrics", 2);
  for (const tally of [oursCpu, metricsCpu]) Object.assign(tally, { cpuMs: 0, requests: 0 });
  // Alternating runs (bare, then ours and metrics-on interleaved, then bare): a machine that
  // speeds up or slows down during the run weighs on each side alike.
  const half = DURATION / 2;
  const scraper = scrapeEvery(`http://127.0.0.1:${metricsPort}/metrics`);
  const bareRuns = [await runBare("bare-1", half)];
  // Metrics off and on in quarters, twice (off, on, on, off): the two sides run close together.
  const oursRuns: LoadResult[] = [];
  const metricsRuns: LoadResult[] = [];
  for (const round of [1, 2]) {
    oursRuns.push(await runOurs(`ours-${round}a`, half / 2));
    metricsRuns.push(await runMetrics(`metrics-${round}a`, half / 2));
    metricsRuns.push(await runMetrics(`metrics-${round}b`, half / 2));
    oursRuns.push(await runOurs(`ours-${round}b`, half / 2));
  }
  bareRuns.push(await runBare("bare-2", half));
  const scrapes = await scraper.stop();
  await withMetrics.stop();
  await metricsDb.drop();
  await ours.stop();
  bare.close();
  await oursDb.drop();
  await bareDb.drop();

  const mean = (runs: LoadResult[]) => ({
    rps: runs.reduce((sum, r) => sum + r.rps, 0) / runs.length,
    p50: Math.max(...runs.map((r) => r.p50)),
    p99: Math.max(...runs.map((r) => r.p99)),
    failed: runs.reduce((sum, r) => sum + r.non2xx + r.errors, 0),
  });
  const bareRun = mean(bareRuns);
  const oursRun = mean(oursRuns);
  const metricsRun = mean(metricsRuns);
  const cost = metricsCost(oursRun.rps, metricsRun.rps);
  const row = (endpoint: string, r: ReturnType<typeof mean>) => ({
    engine: engine.name,
    endpoint,
    "inserts/s": fmt(r.rps),
    "p50 ms": r.p50,
    "p99 ms": r.p99,
    "non-2xx": r.failed,
  });
  return [
    row("bare Fastify route", bareRun),
    row("POST /rest/v1/newsletter_subscribers", oursRun),
    {
      engine: engine.name,
      endpoint: "ratio",
      "inserts/s": `${fmt((oursRun.rps / bareRun.rps) * 100, 1)} %`,
      "p50 ms": "",
      "p99 ms": "",
      "non-2xx": "",
    },
    row(`the same with metrics on (${scrapes} scrapes)`, metricsRun),
    {
      engine: engine.name,
      endpoint: "server CPU per insert, on / off",
      "inserts/s": `${fmt(metricsCpu.cpuMs / metricsCpu.requests, 3)} / ${fmt(oursCpu.cpuMs / oursCpu.requests, 3)} ms (${fmt((metricsCpu.cpuMs / metricsCpu.requests / (oursCpu.cpuMs / oursCpu.requests) - 1) * 100, 1)} %)`,
      "p50 ms": "",
      "p99 ms": "",
      "non-2xx": "",
    },
    {
      engine: engine.name,
      endpoint: "metrics on / off",
      "inserts/s": `${cost.value} ${cost.ok === "yes" ? "" : "(over 3 %)"}`.trim(),
      "p50 ms": "",
      "p99 ms": "",
      "non-2xx": "",
    },
  ];
}

console.log(
  `Revwise API benchmark · ${os.cpus().length} cores · ${CONNECTIONS} connections · ${DURATION}s per run\n`,
);
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
