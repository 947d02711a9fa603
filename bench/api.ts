// npm run bench:api: newsletter inserts per second through POST /rest/v1/newsletter_subscribers
// (the real server: key check, validation, rate limit, headers, logging) next to a bare Fastify
// route doing the same insert on the same kind of database, measured in the same run, on
// embedded PGlite and on PostgreSQL. Target (issue 4): ≥ 80 % of the bare route.
import { spawn } from "node:child_process";
import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { createTestDatabase, postgresAvailable } from "../tests/support/postgres.ts";
import { startServer } from "../tests/support/server-process.ts";
import { fmt, load, table, type LoadResult } from "./lib.ts";

const DURATION = Number(process.env.BENCH_SECONDS ?? 10);
const CONNECTIONS = 10;

function bareServer(env: Record<string, string>): Promise<{ url: string; close(): void }> {
  const child = spawn(process.execPath, ["--import", "tsx", "bench/bare-insert-server.ts"], {
    env: { ...process.env, ...env },
    stdio: ["ignore", "pipe", "inherit"],
  });
  return new Promise((resolve) => {
    child.stdout.on("data", (d: Buffer) => {
      const port = /listening (\d+)/.exec(d.toString())?.[1];
      if (port) resolve({ url: `http://127.0.0.1:${port}`, close: () => child.kill() });
    });
  });
}

/** Every request a new subscriber from a new address (distinct visitors, as in production). */
const uniqueInsert = (prefix: string) => (req: { headers?: Record<string, string> }) => {
  const id = crypto.randomBytes(6).toString("hex");
  return {
    ...req,
    headers: {
      ...req.headers,
      "x-forwarded-for": `10.${crypto.randomInt(256)}.${crypto.randomInt(256)}.${crypto.randomInt(256)}`,
    },
    body: JSON.stringify({ email: `${prefix}-${id}@bench.example` }),
  };
};

async function measure(
  engine: string,
  env: Record<string, string>,
): Promise<Record<string, string | number>[]> {
  const ours = await startServer({ ...env, TRUST_PROXY: "true", LOG_LEVEL: "info" });
  const anonKey = /anon key: ([\w.-]+)/.exec(ours.logs.join("\n"))![1]!;
  const bare = await bareServer(env);
  const run = (url: string, extra: Record<string, string>, prefix: string, seconds = DURATION) =>
    load({
      url,
      method: "POST",
      connections: CONNECTIONS,
      durationSeconds: seconds,
      headers: { "content-type": "application/json", ...extra },
      setupRequest: uniqueInsert(prefix) as never,
    });
  const oursHeaders = {
    apikey: anonKey,
    authorization: `Bearer ${anonKey}`,
    "content-profile": "public",
  };
  await run(`${ours.url}/rest/v1/newsletter_subscribers`, oursHeaders, "warm-ours", 2);
  await run(`${bare.url}/insert`, {}, "warm-bare", 2);
  const bareRun = await run(`${bare.url}/insert`, {}, "bare");
  const oursRun = await run(`${ours.url}/rest/v1/newsletter_subscribers`, oursHeaders, "ours");
  await ours.stop();
  bare.close();
  const row = (name: string, r: LoadResult) => ({
    engine,
    endpoint: name,
    "inserts/s": fmt(r.rps),
    "p50 ms": r.p50,
    "p99 ms": r.p99,
    "non-2xx": r.non2xx + r.errors,
  });
  return [
    row("bare Fastify route", bareRun),
    row("POST /rest/v1/newsletter_subscribers", oursRun),
    {
      engine,
      endpoint: "ratio",
      "inserts/s": `${fmt((oursRun.rps / bareRun.rps) * 100, 1)} %`,
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
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "revwise-bench-api-"));
rows.push(
  ...(await measure("PGlite", { DATA_DIR: dataDir, SITE_DIR: path.join(dataDir, "no-site") })),
);
if (await postgresAvailable()) {
  const database = await createTestDatabase();
  rows.push(
    ...(await measure("PostgreSQL", {
      DATABASE_URL: database.url,
      DATA_DIR: dataDir,
      SITE_DIR: path.join(dataDir, "no-site"),
    })),
  );
  await database.drop();
}
fs.rmSync(dataDir, { recursive: true, force: true });
table(rows);
console.log("\nTarget: the REST insert reaches ≥ 80 % of the bare route on each engine.");
