// npm run bench: the platform's figures.
//  1. Static-page throughput of our server next to a bare node:http file server, same run, same page.
//  2. The server's first start (new DATA_DIR) and restart (same DATA_DIR) times.
//  3. The same page with metrics on (METRICS_PORT, /metrics scraped every second) vs off.
// Targets: ≥ 50% of the bare server's req/s; first start ≤ 5 s; restart ≤ 2 s; metrics cost ≤ 3 %.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { startServer } from "../tests/support/server-process.ts";
import { freePort } from "../tests/support/ports.ts";
import {
  fmt,
  load,
  metricsCost,
  scrapeEvery,
  startBareServer,
  table,
  type LoadResult,
} from "./lib.ts";

const SITE = path.resolve("build/client");
const PAGE = "/faq";
const DURATION = Number(process.env.BENCH_SECONDS ?? 10);

if (!fs.existsSync(path.join(SITE, "index.html"))) {
  console.error("No build: run `npm run build` first.");
  process.exit(1);
}

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "revwise-bench-"));
const env = { DATA_DIR: dataDir, LOG_LEVEL: "info", SITE_DIR: SITE };

console.log(
  `Revwise platform benchmark · ${os.cpus().length} cores · Node ${process.version} · ${DURATION}s per load run\n`,
);

// Start-up times: a new data dir (creates the embedded database), then the same dir again.
const first = await startServer(env);
await first.stop();
const restarts: number[] = [];
for (let i = 0; i < 3; i++) {
  const again = await startServer(env);
  restarts.push(again.startMs);
  await again.stop();
}
const restart = restarts.sort((a, b) => a - b)[1]!;

// Throughput: identity encoding everywhere (the baselines do not compress). Each server runs in
// its own process; the load generator runs here.
const ours = await startServer(env);
const metricsDir = fs.mkdtempSync(path.join(os.tmpdir(), "revwise-bench-metrics-"));
const metricsPort = await freePort();
const withMetrics = await startServer({
  ...env,
  DATA_DIR: metricsDir,
  METRICS_PORT: String(metricsPort),
});
const bareFile = await startBareServer("bench/bare-server.ts", { args: ["file", SITE] });
const bareMemory = await startBareServer("bench/bare-server.ts", { args: ["memory", SITE] });
const runs: { name: string; url: string; result?: LoadResult }[] = [
  { name: "bare node:http file server (reads per request)", url: bareFile.url },
  { name: "bare node:http, pages in memory", url: bareMemory.url },
  { name: "Revwise (Fastify, logging, headers, CSP)", url: ours.url },
];
for (const run of runs) await load({ url: run.url + PAGE, durationSeconds: 2 }); // warm-up
for (const run of runs) run.result = await load({ url: run.url + PAGE, durationSeconds: DURATION });
// Metrics off and on, alternating halves (off, on, on, off) while /metrics is scraped: a machine
// that speeds up or slows down during the run weighs on both alike.
const scraper = scrapeEvery(`http://127.0.0.1:${metricsPort}/metrics`);
const half = { durationSeconds: DURATION / 2 };
await load({ url: withMetrics.url + PAGE, durationSeconds: 2 }); // warm-up
const offRuns = [await load({ url: ours.url + PAGE, ...half })];
const onRuns = [
  await load({ url: withMetrics.url + PAGE, ...half }),
  await load({ url: withMetrics.url + PAGE, ...half }),
];
offRuns.push(await load({ url: ours.url + PAGE, ...half }));
const scrapes = await scraper.stop();
const meanRps = (rs: LoadResult[]) => rs.reduce((sum, r) => sum + r.rps, 0) / rs.length;
await withMetrics.stop();
fs.rmSync(metricsDir, { recursive: true, force: true });
await ours.stop();
bareFile.close();
bareMemory.close();

table(
  runs.map(({ name, result: r }) => ({
    server: name,
    "req/s": fmt(r!.rps),
    "p50 ms": r!.p50,
    "p99 ms": r!.p99,
    errors: r!.errors + r!.non2xx,
  })),
);
const [file, memory, revwise] = runs.map((r) => r.result!.rps) as [number, number, number];
const ratio = revwise / file;
console.log();
table([
  {
    figure: "metrics off / on (alternating halves)",
    value: `${fmt(meanRps(offRuns))} / ${fmt(meanRps(onRuns))} req/s, ${scrapes} scrapes`,
    target: "",
    ok: "",
  },
  metricsCost(meanRps(offRuns), meanRps(onRuns)),
  {
    figure: "static page throughput vs bare file server",
    value: `${fmt(ratio * 100, 1)} %`,
    target: "≥ 50 %",
    ok: ratio >= 0.5 ? "yes" : "NO",
  },
  {
    figure: "static page throughput vs bare in-memory",
    value: `${fmt((revwise / memory) * 100, 1)} %`,
    target: "(reference)",
    ok: "",
  },
  {
    figure: "first start (new DATA_DIR)",
    value: `${fmt(first.startMs)} ms`,
    target: "≤ 5000 ms",
    ok: first.startMs <= 5000 ? "yes" : "NO",
  },
  {
    figure: "restart (median of 3)",
    value: `${fmt(restart)} ms`,
    target: "≤ 2000 ms",
    ok: restart <= 2000 ? "yes" : "NO",
  },
]);
fs.rmSync(dataDir, { recursive: true, force: true });
