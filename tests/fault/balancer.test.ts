// Three instances on one PostgreSQL and one Redis behind a real haproxy, configured as the
// README's multi-instance recipe says: tokens of one are accepted by the others, a refresh token
// raced across two rotates once, per-IP limits count across all and cannot be dodged with a
// client-written X-Forwarded-For, a kill -9 of one instance under load loses no acknowledged write
// while the balancer moves its traffic, and a SIGTERM under load (a rolling restart) fails nothing.
import crypto from "node:crypto";
import path from "node:path";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { tempDir } from "../support/app.ts";
import {
  BALANCER_ADDRESS,
  haproxyAvailable,
  startHaproxy,
  type Haproxy,
} from "../support/haproxy.ts";
import { insertLoad } from "../support/insert-load.ts";
import { createTestDatabase, postgresAvailable, type TestDatabase } from "../support/postgres.ts";
import { httpRequest } from "../support/raw-http.ts";
import { redisAvailable, TEST_REDIS_URL } from "../support/redis.ts";
import { sharedDeploymentEnv, startServer, type RunningServer } from "../support/server-process.ts";
import { freePort } from "../support/ports.ts";

const available = haproxyAvailable() && (await postgresAvailable()) && (await redisAvailable());

let database: TestDatabase;
const instances: RunningServer[] = [];
let balancer: Haproxy;
let anonKey: string;

/** A loopback address of its own for each client of a run (rate limits count per address). */
const clientAddress = () =>
  `127.${crypto.randomInt(1, 99)}.${crypto.randomInt(256)}.${crypto.randomInt(1, 255)}`;

beforeAll(async () => {
  if (!available) return;
  database = await createTestDatabase();
  const port = await freePort();
  const env = {
    ...sharedDeploymentEnv(database.url, `http://127.0.0.1:${port}`),
    REDIS_URL: TEST_REDIS_URL,
    TRUST_PROXY: BALANCER_ADDRESS,
    MAILER_AUTOCONFIRM: "true",
    // Ten sign-ins at once per client, one more every 30 s: the shared bucket is seen in seconds.
    GOTRUE_RATE_LIMIT_TOKEN_REFRESH: "10",
    // Longer than haproxy needs to see /readyz fail twice (2 × 250 ms), with a margin for a busy machine.
    SHUTDOWN_DRAIN_MS: "2000",
  };
  // One after the other: the first applies the migrations.
  for (let i = 0; i < 3; i++) {
    const dataDir = tempDir();
    instances.push(
      await startServer({ ...env, DATA_DIR: dataDir, SITE_DIR: path.join(dataDir, "none") }),
    );
  }
  anonKey = instances[0]!.anonKey;
  balancer = await startHaproxy(instances.map((i) => i.port));
});

afterAll(async () => {
  await balancer?.stop();
  for (const i of instances) if (i.child.exitCode === null) await i.stop("SIGKILL");
  await database?.drop();
});

const json = { "content-type": "application/json" };

async function signUpAndIn(from: string) {
  const email = `user-${crypto.randomUUID()}@revwise.example`;
  const password = "a-Long-passphrase-42";
  const headers = { apikey: anonKey, ...json };
  const body = JSON.stringify({ email, password });
  const signup = await httpRequest(`${balancer.url}/auth/v1/signup`, {
    method: "POST",
    headers,
    body,
    from,
  });
  expect(signup.status).toBe(200);
  const signin = await httpRequest(`${balancer.url}/auth/v1/token?grant_type=password`, {
    method: "POST",
    headers,
    body,
    from,
  });
  expect(signin.status).toBe(200);
  return JSON.parse(signin.body) as { access_token: string; refresh_token: string };
}

describe.skipIf(!available)("instances behind haproxy on PostgreSQL and Redis", () => {
  it("accepts the tokens one instance issued on the other", async () => {
    const session = await signUpAndIn(clientAddress());
    const auth = { apikey: anonKey, authorization: `Bearer ${session.access_token}` };
    for (const instance of instances) {
      const user = await fetch(`${instance.url}/auth/v1/user`, { headers: auth });
      expect(user.status).toBe(200);
    }
    // And through the balancer, which alternates between them.
    for (let i = 0; i < 4; i++)
      expect((await fetch(`${balancer.url}/auth/v1/user`, { headers: auth })).status).toBe(200);
  });

  it("rotates a refresh token raced on both instances once (GoTrue's reuse interval)", async () => {
    const session = await signUpAndIn(clientAddress());
    const refresh = (url: string) =>
      fetch(`${url}/auth/v1/token?grant_type=refresh_token`, {
        method: "POST",
        headers: { apikey: anonKey, ...json },
        body: JSON.stringify({ refresh_token: session.refresh_token }),
      });
    const racers = instances.slice(0, 2);
    const answers = await Promise.all(racers.flatMap((i) => [refresh(i.url), refresh(i.url)]));
    const bodies = (await Promise.all(answers.map((a) => a.json()))) as {
      refresh_token?: string;
    }[];
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 200]);
    // Within the reuse interval every racer gets the one child token: one rotation happened.
    const children = new Set(bodies.map((b) => b.refresh_token));
    expect(children.size).toBe(1);
    expect(children.has(session.refresh_token)).toBe(false);
    // The session holds the token it started with and one child: one rotation happened.
    const sessionId = (
      JSON.parse(Buffer.from(session.access_token.split(".")[1]!, "base64url").toString()) as {
        session_id: string;
      }
    ).session_id;
    const rows = await withDatabase((c) =>
      c.query<{ n: number }>(
        "SELECT count(*)::int AS n FROM auth.refresh_tokens WHERE session_id = $1",
        [sessionId],
      ),
    );
    expect(rows.rows[0]!.n).toBe(2);
  });

  it("counts one client's sign-ins across both instances, whatever X-Forwarded-For it writes", async () => {
    const from = clientAddress();
    const statuses: number[] = [];
    let i = 0;
    const worker = async () => {
      while (i < 15) {
        const n = i++;
        const res = await httpRequest(`${balancer.url}/auth/v1/token?grant_type=password`, {
          method: "POST",
          // A fresh made-up address on every attempt, as a client dodging the limit would write.
          headers: { apikey: anonKey, ...json, "x-forwarded-for": `198.51.100.${n % 250}` },
          body: JSON.stringify({ email: "nobody@revwise.example", password: `guess-${n}-xxxxxx` }),
          from,
        });
        statuses.push(res.status);
      }
    };
    await Promise.all([worker(), worker(), worker(), worker()]);
    // The sign-in bucket of the client's address, shared by both instances through Redis.
    expect(statuses.filter((s) => s === 400)).toHaveLength(10);
    expect(statuses.filter((s) => s === 429)).toHaveLength(5);
  });

  it("loses no acknowledged write when one instance is killed under load", async () => {
    const load = insertLoad([balancer.url], anonKey, {
      tag: `kill-${Date.now()}`,
      ownAddresses: true,
    });
    while (load.acknowledged.length < 60) await new Promise((r) => setTimeout(r, 20));
    expect(await instances[1]!.stop("SIGKILL")).toBe(null);
    const atKill = load.statuses.length;
    // The balancer takes the dead instance out and the other one serves everything.
    while (load.statuses.slice(atKill).filter((s) => s === 201).length < 60)
      await new Promise((r) => setTimeout(r, 20));
    await load.stop();

    const stored = await withDatabase((c) =>
      c.query<{ email: string }>("SELECT email FROM public.newsletter_subscribers"),
    );
    const emails = new Set(stored.rows.map((r) => r.email));
    expect(load.acknowledged.filter((e) => !emails.has(e))).toEqual([]);
    // Only requests caught inside the killed instance fail (502 from the balancer), none after.
    expect(load.statuses.filter((s) => s !== 201 && s !== 502)).toEqual([]);
  });
});

describe.skipIf(!available)("a rolling restart behind haproxy", () => {
  it("fails no request when an instance is stopped with SIGTERM under load", async () => {
    const load = insertLoad([balancer.url], anonKey, {
      tag: `rolling-${Date.now()}`,
      ownAddresses: true,
    });
    while (load.acknowledged.length < 30) await new Promise((r) => setTimeout(r, 20));
    expect(await instances[2]!.stop("SIGTERM")).toBe(0);
    const atStop = load.statuses.length;
    while (load.statuses.slice(atStop).filter((s) => s === 201).length < 30)
      await new Promise((r) => setTimeout(r, 20));
    await load.stop();
    // Readiness turns 503 for the drain, requests in flight finish and their connections close,
    // and haproxy retries a refused connection elsewhere: no reset, no 502, no 503.
    expect(load.lost).toBe(0);
    expect(load.statuses.filter((s) => s !== 201)).toEqual([]);
  });
});

async function withDatabase<T>(fn: (c: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: database.url });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}
