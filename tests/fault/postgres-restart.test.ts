// PostgreSQL stopped and started again under the built server and a stream of inserts: while it
// is down inserts are answered 503 with Retry-After (never 500; each protocol's shape is checked in
// server/http/database-unavailable.test.ts), liveness stays 200 and readiness 503; once it is back
// the same server serves again, without a restart. Behind the README's haproxy recipe, with no
// instance ready, the instances still get the requests: clients see each protocol's 503, not the
// balancer's page, and whatever needs no database is still served.
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { tempDir } from "../support/app.ts";
import { haproxyAvailable, startHaproxy, type Haproxy } from "../support/haproxy.ts";
import { startOwnPostgres, type OwnPostgres } from "../support/own-postgres.ts";
import { waitUntil } from "../support/poll.ts";
import { sharedDeploymentEnv, startServer, type RunningServer } from "../support/server-process.ts";

const pg: OwnPostgres | undefined = await startOwnPostgres();
const servers: RunningServer[] = [];
let balancer: Haproxy | undefined;

beforeAll(async () => {
  if (!pg) return;
  for (let i = 0; i < 2; i++) {
    const dataDir = tempDir();
    servers.push(
      await startServer({
        ...sharedDeploymentEnv(pg.url),
        DATA_DIR: dataDir,
        SITE_DIR: path.join(dataDir, "none"),
        TRUST_PROXY: "loopback",
      }),
    );
  }
  if (haproxyAvailable()) balancer = await startHaproxy(servers.map((s) => s.port));
});

afterAll(async () => {
  await balancer?.stop();
  for (const s of servers) await s.stop("SIGTERM");
  pg?.destroy();
});

let n = 0;
/** A newsletter sign-up from its own address (each address has its own rate limit). */
function subscribe(url = servers[0]!.url) {
  n++;
  return fetch(`${url}/rest/v1/newsletter_subscribers`, {
    method: "POST",
    headers: {
      apikey: servers[0]!.anonKey,
      "content-type": "application/json",
      "x-forwarded-for": `203.0.113.${n % 250}`,
    },
    body: JSON.stringify({ email: `reader-${n}@revwise.example` }),
  });
}

describe.skipIf(!pg)("PostgreSQL restarted under load", () => {
  it("answers 503 with Retry-After while it is down and serves again once it is back", async () => {
    expect((await subscribe()).status).toBe(201);

    // A stream of inserts, running across the stop and the start: 201 or 503, never anything else.
    const statuses: number[] = [];
    let streaming = true;
    const stream = (async () => {
      while (streaming && statuses.length < 2000) {
        const res = await subscribe();
        await res.arrayBuffer();
        statuses.push(res.status);
      }
    })();

    pg!.stop();
    const down = await subscribe();
    expect(down.status).toBe(503);
    expect(down.headers.get("retry-after")).toBe("1");
    expect(await down.json()).toEqual({
      code: "PGRST000",
      details: null,
      hint: null,
      message: "Database connection error. Retrying the connection.",
    });

    const [server] = servers as [RunningServer];
    const ready = await fetch(`${server.url}/readyz`);
    expect(ready.status).toBe(503);
    expect(await ready.json()).toEqual({ status: "database unavailable" });
    expect((await fetch(`${server.url}/livez`)).status).toBe(200);

    if (balancer) {
      // Once the balancer has taken every instance out, the backups still reach them.
      let states: string[] = [];
      await waitUntil(
        async () => (states = await balancer!.states()).every((s) => s.startsWith("DOWN")),
        10_000,
        () => `haproxy still sees ${states.join(", ")}`,
      );
      expect(states).toHaveLength(2);
      const through = await subscribe(balancer.url);
      expect(through.status).toBe(503);
      expect(through.headers.get("retry-after")).toBe("1");
      expect(await through.json()).toMatchObject({ code: "PGRST000" });
      expect((await fetch(`${balancer.url}/livez`)).status).toBe(200);
    }

    pg!.start();
    // Back: readiness turns 200 on its own, and inserts succeed on the same server.
    for (let i = 0; (await fetch(`${server.url}/readyz`)).status !== 200; i++) {
      if (i > 100) throw new Error("readiness did not recover");
      await new Promise((r) => setTimeout(r, 100));
    }
    expect((await subscribe()).status).toBe(201);
    streaming = false;
    await stream;

    expect(statuses.length).toBeGreaterThan(0);
    expect(statuses.filter((s) => s !== 201 && s !== 503)).toEqual([]);
    expect(statuses).toContain(503);
    expect(servers.map((s) => s.child.exitCode)).toEqual([null, null]);
  });
});
