// npm run bench: the platform's figures.
//  1. Static-page throughput of our server next to a bare node:http file server, same run, same page.
//  2. The server's first start (new DATA_DIR) and restart (same DATA_DIR) times.
// Targets (issue 2): ≥ 50% of the bare server's req/s; first start ≤ 5 s; restart ≤ 2 s.
import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { startServer } from "../tests/support/server-process.ts";
import { fmt, load, table } from "./lib.ts";

const SITE = path.resolve("build/client");
const PAGE = "/faq";
const DURATION = Number(process.env.BENCH_SECONDS ?? 10);

if (!fs.existsSync(path.join(SITE, "index.html"))) {
  console.error("No build: run `npm run build` first.");
  process.exit(1);
}

/** The baseline: the simplest correct file server (reads the prerendered file per request). */
function bareFileServer(): Promise<{ url: string; close(): void }> {
  const server = http.createServer((req, res) => {
    const pathname = decodeURIComponent(new URL(req.url ?? "/", "http://x").pathname);
    const file = path.join(SITE, pathname === "/" ? "index.html" : `${pathname}/index.html`);
    if (!file.startsWith(SITE)) return res.writeHead(400).end();
    fs.readFile(file, (err, body) => {
      if (err) return res.writeHead(404).end();
      res
        .writeHead(200, {
          "content-type": "text/html; charset=utf-8",
          "content-length": body.length,
        })
        .end(body);
    });
  });
  return new Promise((resolve) =>
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as { port: number };
      resolve({ url: `http://127.0.0.1:${port}`, close: () => server.close() });
    }),
  );
}

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "revwise-bench-"));
const env = { DATA_DIR: dataDir, LOG_LEVEL: "warn", SITE_DIR: SITE };

console.log(
  `Revwise platform benchmark · ${os.cpus().length} cores · Node ${process.version} · ${DURATION}s per load run\n`,
);

// Start-up times: a new data dir (creates the embedded database), then the same dir again.
const first = await startServer({ ...env, LOG_LEVEL: "info" });
await first.stop();
const restarts: number[] = [];
for (let i = 0; i < 3; i++) {
  const again = await startServer({ ...env, LOG_LEVEL: "info" });
  restarts.push(again.startMs);
  await again.stop();
}
const restart = restarts.sort((a, b) => a - b)[1]!;

// Throughput: identity encoding on both (the bare server does not compress).
const ours = await startServer(env);
const bare = await bareFileServer();
await load({ url: ours.url + PAGE, durationSeconds: 2 }); // warm-up
await load({ url: bare.url + PAGE, durationSeconds: 2 });
const oursRun = await load({ url: ours.url + PAGE, durationSeconds: DURATION });
const bareRun = await load({ url: bare.url + PAGE, durationSeconds: DURATION });
await ours.stop();
bare.close();

const ratio = oursRun.rps / bareRun.rps;
table([
  {
    server: "bare node:http file server",
    "req/s": fmt(bareRun.rps),
    "p50 ms": bareRun.p50,
    "p99 ms": bareRun.p99,
    errors: bareRun.errors + bareRun.non2xx,
  },
  {
    server: "Revwise (Fastify, headers, CSP)",
    "req/s": fmt(oursRun.rps),
    "p50 ms": oursRun.p50,
    "p99 ms": oursRun.p99,
    errors: oursRun.errors + oursRun.non2xx,
  },
]);
console.log();
table([
  {
    figure: "static page throughput vs bare",
    value: `${fmt(ratio * 100, 1)} %`,
    target: "≥ 50 %",
    ok: ratio >= 0.5 ? "yes" : "NO",
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
