// npm run bench:auth: password sign-in latency (p50/p99, one request at a time) and throughput
// (concurrent requests) of POST /auth/v1/token?grant_type=password, next to the bare argon2id
// password check measured in the same run. Target (issue 5): p50 ≤ 1.3 × one hash.
import { verify } from "@node-rs/argon2";
import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { hashPassword } from "../server/auth/passwords.ts";
import { createTestDatabase, postgresAvailable } from "../tests/support/postgres.ts";
import { startServer } from "../tests/support/server-process.ts";
import { fmt, load, table } from "./lib.ts";

const SIGN_INS = Number(process.env.BENCH_SIGN_INS ?? 200);
const PASSWORD = "Benchmark-Passphrase-42";
const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
let ip = 0;
const nextIp = () => `10.9.${(++ip >> 8) & 255}.${ip & 255}`;

// The bare cost: one argon2id check at the server's parameters, in this process, one at a time.
const encoded = await hashPassword(PASSWORD);
for (let i = 0; i < 5; i++) await verify(encoded, PASSWORD);
const hashTimes: number[] = [];
for (let i = 0; i < 50; i++) {
  const t = performance.now();
  await verify(encoded, PASSWORD);
  hashTimes.push(performance.now() - t);
}
hashTimes.sort((a, b) => a - b);
const hashP50 = percentile(hashTimes, 50);

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "revwise-bench-auth-"));

/** Sign-in latency (one at a time) and throughput (4 connections) on one engine. */
async function measure(engine: string, env: Record<string, string>) {
  const server = await startServer({
    ...env,
    DATA_DIR: dataDir,
    SITE_DIR: path.join(dataDir, "no-site"),
    TRUST_PROXY: "true",
    MAILER_AUTOCONFIRM: "true",
    LOG_LEVEL: "info", // production's logging: a line per request
  });
  const anonKey = /anon key: ([\w.-]+)/.exec(server.logs.join("\n"))![1]!;
  const email = `bench-${engine.toLowerCase()}@revwise.example`;
  const body = JSON.stringify({ email, password: PASSWORD });
  const headers = { apikey: anonKey, "content-type": "application/json" };
  await fetch(`${server.url}/auth/v1/signup`, {
    method: "POST",
    headers: { ...headers, "x-forwarded-for": nextIp() },
    body,
  });
  const withIp = ((req: { headers?: Record<string, string> }) => ({
    ...req,
    body,
    headers: { ...req.headers, "x-forwarded-for": nextIp() },
  })) as never;
  const url = `${server.url}/auth/v1/token?grant_type=password`;
  // Latency: one request at a time over a keep-alive connection (a lean client, µs precision).
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const post = () =>
    new Promise<number>((resolve, reject) => {
      const req = http.request(
        url,
        {
          method: "POST",
          agent,
          headers: {
            ...headers,
            "x-forwarded-for": nextIp(),
            "content-length": Buffer.byteLength(body),
          },
        },
        (res) => {
          res.resume();
          res.on("end", () => resolve(res.statusCode ?? 0));
        },
      );
      req.on("error", reject);
      req.end(body);
    });
  for (let i = 0; i < 30; i++) await post(); // warm-up
  const times: number[] = [];
  for (let i = 0; i < SIGN_INS; i++) {
    const t = performance.now();
    if ((await post()) !== 200) throw new Error(`${engine}: a sign-in failed`);
    times.push(performance.now() - t);
  }
  agent.destroy();
  times.sort((a, b) => a - b);
  const sequential = { p50: percentile(times, 50), p99: percentile(times, 99) };
  const concurrent = await load({
    url,
    method: "POST",
    connections: 4,
    durationSeconds: Number(process.env.BENCH_SECONDS ?? 10),
    headers,
    setupRequest: withIp,
  });
  await server.stop();
  if (concurrent.non2xx || concurrent.errors)
    throw new Error(`${engine}: sign-ins failed under load`);
  return [
    {
      engine,
      measure: `sign-in latency p50 / p99 (${SIGN_INS} one at a time)`,
      value: `${fmt(sequential.p50, 1)} ms / ${fmt(sequential.p99, 1)} ms`,
    },
    {
      engine,
      measure: "sign-in throughput (4 connections)",
      value: `${fmt(concurrent.rps, 1)} /s (p50 ${concurrent.p50} ms)`,
    },
    {
      engine,
      measure: "p50 / one hash",
      value: `${fmt(sequential.p50 / hashP50, 2)} × (target ≤ 1.3 ×)`,
    },
  ];
}

const rows = [
  { engine: "-", measure: "bare argon2id check (p50 of 50)", value: `${fmt(hashP50, 1)} ms` },
];
rows.push(...(await measure("PGlite", {})));
if (await postgresAvailable()) {
  const database = await createTestDatabase();
  rows.push(...(await measure("PostgreSQL", { DATABASE_URL: database.url })));
  await database.drop();
}
fs.rmSync(dataDir, { recursive: true, force: true });

console.log(`Revwise sign-in benchmark · ${os.cpus().length} cores · argon2id m=19456 t=2 p=1\n`);
table(rows);
