// npm run bench:scale: does the service stay as fast once it holds years of data? Password
// sign-in latency (p50, one at a time) and REST inserts per second (POST /rest/v1/
// newsletter_subscribers, 10 connections) on a database holding 1 million users (each with an
// identity, a session and a refresh token), 5 million leads over the five lead tables and 1 million
// delivered emails, as a ratio to an empty database, in the same run. Targets: inserts/s
// ≥ 0.9 × and sign-in p50 ≤ 1.1 × the empty database's.
//
// Two databases of one engine, each behind its own server: one left empty, one filled (bench/
// scale-fill.ts). They are measured alternately (sign-ins one here, one there; inserts empty, full,
// full, empty), so a shared machine that speeds up or slows down during the run weighs on both
// alike: measured one after the other, the machine moves the ratio by more than the data does.
// Sign-ins on the full database are as random users among the million; on the empty one, as its
// only user. Both databases are dropped at the end, failed or not.
//
// PostgreSQL always (the test server); embedded PGlite too with BENCH_SCALE_PGLITE=1 (its fill runs
// in WebAssembly on one core: much slower). BENCH_SCALE=0.01 runs with a hundredth of the rows.
import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { hashPassword } from "../server/auth/passwords.ts";
import { openDatabase } from "../server/db/open.ts";
import { createTestDatabase, postgresAvailable } from "../tests/support/postgres.ts";
import {
  sharedDeploymentEnv,
  startServer,
  type RunningServer,
} from "../tests/support/server-process.ts";
import { fmt, load, median, poster, table, uniqueInsert, type LoadResult } from "./lib.ts";
import { fill, fillUserEmail, type FillSizes } from "./scale-fill.ts";

const SCALE = Number(process.env.BENCH_SCALE ?? 1);
const SIZES: FillSizes = {
  users: Math.round(1_000_000 * SCALE),
  leads: Math.round(5_000_000 * SCALE),
  emails: Math.round(1_000_000 * SCALE),
};
const SIGN_INS = Number(process.env.BENCH_SIGN_INS ?? 300);
// Longer than bench:api's 10 s: just after the fill's checkpoint the first write to each page of a
// big index also writes the page whole to the WAL, and a short run measures only that phase of
// the checkpoint cycle (the empty database has few pages, so it leaves that phase at once).
const DURATION = Number(process.env.BENCH_SECONDS ?? 30);
const CONNECTIONS = 10;
const PASSWORD = "Benchmark-Passphrase-42";

type Place = { env: Record<string, string>; size(): Promise<string>; drop(): Promise<void> };
type Engine = { name: string; place(): Promise<Place> };

const pglite: Engine = {
  name: "PGlite",
  async place() {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "revwise-bench-scale-"));
    const du = (dir: string): number =>
      fs
        .readdirSync(dir, { withFileTypes: true })
        .reduce(
          (sum, e) =>
            sum +
            (e.isDirectory()
              ? du(path.join(dir, e.name))
              : fs.statSync(path.join(dir, e.name)).size),
          0,
        );
    return {
      env: { DATA_DIR: dataDir, SITE_DIR: path.join(dataDir, "no-site") },
      size: async () => `${fmt(du(dataDir) / 2 ** 20)} MiB`,
      drop: async () => fs.rmSync(dataDir, { recursive: true, force: true }),
    };
  },
};

const postgres: Engine = {
  name: "PostgreSQL",
  async place() {
    const database = await createTestDatabase();
    const files = await pglite.place();
    return {
      env: { ...files.env, ...sharedDeploymentEnv(database.url) },
      async size() {
        const db = await openDatabase({ databaseUrl: database.url, dataDir: files.env.DATA_DIR! });
        const [row] = await db.query<{ size: string }>(
          "SELECT pg_size_pretty(pg_database_size(current_database())) AS size",
        );
        await db.close();
        return row!.size;
      },
      async drop() {
        await database.drop();
        await files.drop();
      },
    };
  },
};

async function filled(place: Place): Promise<string> {
  const db = await openDatabase({
    databaseUrl: place.env.DATABASE_URL,
    dataDir: place.env.DATA_DIR!,
  });
  const started = performance.now();
  try {
    await fill(db, SIZES, await hashPassword(PASSWORD), (line) => console.log(`  ${line}`));
  } finally {
    await db.close();
  }
  return `${fmt((performance.now() - started) / 1000)} s`;
}

function serve(place: Place): Promise<RunningServer> {
  return startServer({
    ...place.env,
    TRUST_PROXY: "loopback",
    MAILER_AUTOCONFIRM: "true",
    LOG_LEVEL: "info", // production's logging: a line per request
  });
}

const anonKeyOf = (server: RunningServer) =>
  /anon key: ([\w.-]+)/.exec(server.logs.join("\n"))![1]!;

/** Sign-in p50 on both servers, one request at a time, alternately. */
async function signIns(empty: RunningServer, full: RunningServer) {
  const signIn = (server: RunningServer, email: () => string) =>
    poster(
      `${server.url}/auth/v1/token?grant_type=password`,
      () => JSON.stringify({ email: email(), password: PASSWORD }),
      { apikey: anonKeyOf(server), "content-type": "application/json" },
    );
  const onlyUser = "only@scale.example";
  const signUp = await fetch(`${empty.url}/auth/v1/signup`, {
    method: "POST",
    headers: { apikey: anonKeyOf(empty), "content-type": "application/json" },
    body: JSON.stringify({ email: onlyUser, password: PASSWORD }),
  });
  if (!signUp.ok) throw new Error(`sign-up on the empty database: ${signUp.status}`);
  const onEmpty = signIn(empty, () => onlyUser);
  const onFull = signIn(full, () => fillUserEmail(1 + crypto.randomInt(SIZES.users)));
  for (let i = 0; i < 30; i++) await Promise.all([onEmpty.timed(), onFull.timed()]); // warm-up
  const times = { empty: [] as number[], full: [] as number[] };
  for (let i = 0; i < SIGN_INS; i++) {
    times.empty.push(await onEmpty.timed());
    times.full.push(await onFull.timed());
  }
  onEmpty.close();
  onFull.close();
  return { empty: median(times.empty), full: median(times.full) };
}

/** REST inserts per second on both servers: empty, full, full, empty (half the time each). */
async function inserts(empty: RunningServer, full: RunningServer) {
  const run = (server: RunningServer, prefix: string, seconds: number) =>
    load({
      url: `${server.url}/rest/v1/newsletter_subscribers`,
      method: "POST",
      connections: CONNECTIONS,
      durationSeconds: seconds,
      headers: {
        "content-type": "application/json",
        apikey: anonKeyOf(server),
        authorization: `Bearer ${anonKeyOf(server)}`,
        "content-profile": "public",
      },
      setupRequest: uniqueInsert(prefix) as never,
    });
  await run(empty, "warm-empty", 2);
  await run(full, "warm-full", 2);
  const half = DURATION / 2;
  const emptyRuns = [await run(empty, "empty-1", half)];
  const fullRuns = [await run(full, "full-1", half), await run(full, "full-2", half)];
  emptyRuns.push(await run(empty, "empty-2", half));
  const rps = (runs: LoadResult[]) => {
    if (runs.some((r) => r.non2xx || r.errors)) throw new Error("inserts failed under load");
    return runs.reduce((sum, r) => sum + r.rps, 0) / runs.length;
  };
  return { empty: rps(emptyRuns), full: rps(fullRuns) };
}

async function measure(engine: Engine): Promise<Record<string, string>[]> {
  const emptyPlace = await engine.place();
  const fullPlace = await engine.place();
  const servers: RunningServer[] = [];
  try {
    console.log(`${engine.name}: filling…`);
    const fillTime = await filled(fullPlace);
    const empty = await serve(emptyPlace);
    servers.push(empty);
    const full = await serve(fullPlace);
    servers.push(full);
    const signIn = await signIns(empty, full);
    const insert = await inserts(empty, full);
    const row = (measure: string, e: string, f: string, ratio: number, target: string) => ({
      engine: engine.name,
      measure,
      empty: e,
      full: f,
      "full / empty": `${fmt(ratio, 2)} ×`,
      target,
    });
    return [
      {
        engine: engine.name,
        measure: "database size, fill time",
        empty: await emptyPlace.size(),
        full: `${await fullPlace.size()}, filled in ${fillTime}`,
        "full / empty": "",
        target: "",
      },
      row(
        `sign-in p50 (${SIGN_INS}, one at a time)`,
        `${fmt(signIn.empty, 1)} ms`,
        `${fmt(signIn.full, 1)} ms`,
        signIn.full / signIn.empty,
        "≤ 1.10 ×",
      ),
      row(
        `REST inserts/s (${CONNECTIONS} connections)`,
        fmt(insert.empty),
        fmt(insert.full),
        insert.full / insert.empty,
        "≥ 0.90 ×",
      ),
    ];
  } finally {
    for (const server of servers) await server.stop();
    await emptyPlace.drop();
    await fullPlace.drop();
  }
}

console.log(
  `Revwise scale benchmark · ${os.cpus().length} cores · ${fmt(SIZES.users)} users, ` +
    `${fmt(SIZES.leads)} leads, ${fmt(SIZES.emails)} delivered emails\n`,
);
// Each engine's table as soon as it is measured (a PGlite fill is long).
const engines = [
  ...((await postgresAvailable()) ? [postgres] : []),
  ...(process.env.BENCH_SCALE_PGLITE === "1" ? [pglite] : []),
];
for (const engine of engines) {
  const rows = await measure(engine);
  console.log("");
  table(rows);
  console.log("");
}
