// A real Prometheus scraping built instances (node build/backend/server.mjs with METRICS_PORT) and
// answering queries through its HTTP API: one instance on embedded PGlite, one on PostgreSQL, and
// two on PostgreSQL behind haproxy, each scraped on its own. The repository's alert rules load
// and evaluate in it, pass `promtool check rules`, and fire in their own unit tests.
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { tempDir } from "../support/app.ts";
import {
  BALANCER_ADDRESS,
  haproxyAvailable,
  startHaproxy,
  type Haproxy,
} from "../support/haproxy.ts";
import { readUntil } from "../support/poll.ts";
import { freePort } from "../support/ports.ts";
import { createTestDatabase, postgresAvailable, type TestDatabase } from "../support/postgres.ts";
import {
  ALERT_RULES,
  prometheusAvailable,
  startPrometheus,
  type Prometheus,
  type Sample,
} from "../support/prometheus.ts";
import { sharedDeploymentEnv, startServer } from "../support/server-process.ts";

const havePrometheus = prometheusAvailable();
const havePostgres = await postgresAvailable();
const haveHaproxy = haproxyAvailable();

/** An instance with its metrics on a port of its own; its /metrics URL. */
async function startInstance(env: Record<string, string> = {}) {
  const dataDir = tempDir();
  const metricsPort = await freePort();
  const server = await startServer({
    DATA_DIR: dataDir,
    SITE_DIR: path.join(dataDir, "none"),
    MAILER_AUTOCONFIRM: "true",
    METRICS_PORT: String(metricsPort),
    ...env,
  });
  return { server, metricsUrl: `http://127.0.0.1:${metricsPort}/metrics` };
}

const valueOf = (samples: Sample[]) => samples[0]?.value ?? Number.NaN;

describe.skipIf(!havePrometheus)("the alert rules", () => {
  const promtool = (...args: string[]) =>
    spawnSync("promtool", args, { cwd: path.dirname(ALERT_RULES), encoding: "utf8" });

  it("pass promtool check rules, and each alert fires in the rules' unit tests", () => {
    const check = promtool("check", "rules", ALERT_RULES);
    expect(check.status, check.stderr).toBe(0);
    expect(check.stdout).toContain("SUCCESS: 7 rules found");
    const unit = promtool("test", "rules", "alerts.test.yml");
    expect(unit.status, unit.stdout + unit.stderr).toBe(0);
  });

  it("are refused by promtool when one is broken (the check can fail)", () => {
    const broken = path.join(tempDir("revwise-rules-"), "broken.yml");
    fs.writeFileSync(
      broken,
      fs.readFileSync(ALERT_RULES, "utf8").replace('up{job="revwise"} == 0', "up{job= == 0"),
    );
    expect(promtool("check", "rules", broken).status).not.toBe(0);
  });
});

const engines = [
  { name: "embedded PGlite", available: true, postgres: false },
  { name: "PostgreSQL", available: havePostgres, postgres: true },
];

for (const engine of engines)
  describe.skipIf(!havePrometheus || !engine.available)(
    `Prometheus scraping one instance on ${engine.name}`,
    () => {
      let database: TestDatabase | undefined;
      let instance: Awaited<ReturnType<typeof startInstance>>;
      let prometheus: Prometheus;

      beforeAll(async () => {
        if (engine.postgres) database = await createTestDatabase();
        instance = await startInstance(database ? sharedDeploymentEnv(database.url) : {});
        prometheus = await startPrometheus([instance.metricsUrl]);
      });
      afterAll(async () => {
        await prometheus?.stop();
        await instance?.server.stop();
        await database?.drop();
      });

      it("reads requests, sign-ins, leads, queues and readiness through its query API", async () => {
        const { url, anonKey } = instance.server;
        await prometheus.queryUntil('up{job="revwise"}', (s) => valueOf(s) === 1);

        const headers = { apikey: anonKey, "content-type": "application/json" };
        const email = `metrics-${Date.now()}@revwise.example`;
        const body = (password: string) => JSON.stringify({ email, password });
        const post = (pathname: string, payload: string) =>
          fetch(`${url}${pathname}`, { method: "POST", headers, body: payload });
        expect((await post("/auth/v1/signup", body("a-Long-passphrase-42"))).status).toBe(200);
        expect(
          (await post("/auth/v1/token?grant_type=password", body("wrong-Pass-1"))).status,
        ).toBe(400);
        expect(
          (await post("/auth/v1/token?grant_type=password", body("a-Long-passphrase-42"))).status,
        ).toBe(200);
        expect(
          (await post("/rest/v1/newsletter_subscribers", JSON.stringify({ email }))).status,
        ).toBe(201);

        await prometheus.queryUntil(
          'revwise_auth_sign_ins_total{method="password",outcome="failure"}',
          (s) => valueOf(s) === 1,
        );
        await prometheus.queryUntil(
          'revwise_auth_sign_ins_total{method="password",outcome="success"}',
          (s) => valueOf(s) === 1,
        );
        await prometheus.queryUntil(
          'revwise_leads_stored_total{form="newsletter"}',
          (s) => valueOf(s) === 1,
        );
        const token = await prometheus.queryUntil(
          'sum by (http_response_status_code) (http_server_request_duration_seconds_count{http_route="/auth/v1/token",http_request_method="POST"})',
          (s) => s.length === 2,
        );
        expect(
          Object.fromEntries(token.map((s) => [s.metric.http_response_status_code, s.value])),
        ).toEqual({ "200": 1, "400": 1 });
        // A latency quantile, as a dashboard draws it: from the rate of requests made once
        // Prometheus has seen their series.
        const settings = () => fetch(`${url}/auth/v1/settings`, { headers });
        expect((await settings()).status).toBe(200);
        await prometheus.queryUntil(
          'http_server_request_duration_seconds_count{http_route="/auth/v1/settings"}',
          (s) => valueOf(s) === 1,
        );
        for (let i = 0; i < 5; i++) await settings();
        const p99 = await prometheus.queryUntil(
          'histogram_quantile(0.99, sum by (le) (rate(http_server_request_duration_seconds_bucket{http_route="/auth/v1/settings"}[1m])))',
          (s) => Number.isFinite(valueOf(s)),
        );
        expect(valueOf(p99)).toBeGreaterThan(0);
        expect(valueOf(p99)).toBeLessThan(10);

        expect(valueOf(await prometheus.query("revwise_ready"))).toBe(1);
        const queues = await prometheus.query("revwise_queue_items");
        expect(queues.map((s) => `${s.metric.queue}/${s.metric.state}`).sort()).toEqual([
          "email/due",
          "email/scheduled",
          "email/sending",
          "webhook/due",
          "webhook/scheduled",
          "webhook/sending",
        ]);
        expect(await prometheus.query("revwise_queue_oldest_waiting_seconds")).toHaveLength(2);
        expect(valueOf(await prometheus.query("process_resident_memory_bytes"))).toBeGreaterThan(0);
        expect(await prometheus.query("nodejs_eventloop_lag_p99_seconds")).toHaveLength(1);
        // No series names a raw path or an address typed by a visitor.
        const routes = await prometheus.query(
          "count by (http_route) (http_server_request_duration_seconds_count)",
        );
        expect(routes.map((s) => s.metric.http_route)).not.toContain(
          "/auth/v1/token?grant_type=password",
        );
        expect(JSON.stringify(await prometheus.query('{job="revwise"}'))).not.toContain(email);

        // Every alert rule evaluates on the instance's real series without an error.
        const rules = await prometheus
          .queryUntil("vector(1)", () => true)
          .then(() => prometheus.ruleHealth());
        expect(rules).toHaveLength(7);
        for (const rule of rules) expect(rule, rule.name).toMatchObject({ health: "ok" });
      });
    },
  );

describe.skipIf(!havePrometheus || !havePostgres || !haveHaproxy)(
  "Prometheus scraping two instances behind haproxy, each on its own",
  () => {
    let database: TestDatabase;
    const instances: Awaited<ReturnType<typeof startInstance>>[] = [];
    let balancer: Haproxy;
    let prometheus: Prometheus;

    beforeAll(async () => {
      database = await createTestDatabase();
      const env = { ...sharedDeploymentEnv(database.url), TRUST_PROXY: BALANCER_ADDRESS };
      // One after the other: the first applies the migrations.
      for (let i = 0; i < 2; i++) instances.push(await startInstance(env));
      balancer = await startHaproxy(instances.map((i) => i.server.port));
      prometheus = await startPrometheus(instances.map((i) => i.metricsUrl));
    });
    afterAll(async () => {
      await prometheus?.stop();
      await balancer?.stop();
      for (const { server } of instances) if (server.child.exitCode === null) await server.stop();
      await database?.drop();
    });

    it("counts each instance's share of the balancer's requests under its own target", async () => {
      const targets = instances.map((i) => new URL(i.metricsUrl).host).sort();
      const up = await prometheus.queryUntil('up{job="revwise"} == 1', (s) => s.length === 2);
      expect(up.map((s) => s.metric.instance).sort()).toEqual(targets);

      const headers = { apikey: instances[0]!.server.anonKey };
      for (let i = 0; i < 20; i++)
        expect((await fetch(`${balancer.url}/auth/v1/settings`, { headers })).status).toBe(200);
      const perInstance = await prometheus.queryUntil(
        'sum by (instance) (http_server_request_duration_seconds_count{http_route="/auth/v1/settings"})',
        (s) => s.length === 2 && s.reduce((n, x) => n + x.value, 0) === 20,
      );
      for (const share of perInstance) expect(share.value).toBeGreaterThan(0);
    });

    it("answers with the balancer's request id, which the instance's log line carries", async () => {
      const res = await fetch(`${balancer.url}/auth/v1/settings`, {
        headers: { apikey: instances[0]!.server.anonKey, "x-request-id": "client-chosen" },
      });
      const id = res.headers.get("x-request-id")!;
      // haproxy's unique-id-format: the client's and the frontend's addresses in hex, …
      expect(id).toMatch(/^[0-9A-F]{8}:[0-9A-F]{4}_[0-9A-F]{8}:[0-9A-F]{4}_/);
      // The instances write their log a quarter of a second at a time.
      const lines = await readUntil(
        async () =>
          instances
            .flatMap((i) => i.server.logs)
            .filter((l) => l.includes(id))
            .map((l) => JSON.parse(l) as { reqId: string; msg: string; req: { url: string } }),
        (found) => found.length > 0,
      );
      expect(lines).toEqual([expect.objectContaining({ reqId: id, msg: "request completed" })]);
      expect(lines[0]!.req.url).toBe("/auth/v1/settings");

      // Straight to an instance (not through a trusted balancer): a client's id is not taken.
      const direct = await fetch(`${instances[0]!.server.url}/livez`, {
        headers: { "x-request-id": "client-chosen" },
      });
      expect(direct.headers.get("x-request-id")).toMatch(/^[0-9a-f-]{36}$/);
    });

    it("sees an instance that stops as down, and the alert on it pending", async () => {
      const stopped = instances[1]!;
      await stopped.server.stop();
      const down = await prometheus.queryUntil('up{job="revwise"} == 0', (s) => s.length === 1);
      expect(down[0]!.metric.instance).toBe(new URL(stopped.metricsUrl).host);
      const alert = await prometheus.queryUntil(
        'ALERTS{alertname="RevwiseInstanceDown"}',
        (s) => s.length === 1,
      );
      expect(alert[0]!.metric).toMatchObject({
        alertstate: "pending",
        instance: new URL(stopped.metricsUrl).host,
      });
      expect(
        valueOf(await prometheus.query(`up{instance="${new URL(instances[0]!.metricsUrl).host}"}`)),
      ).toBe(1);
    });
  },
);
