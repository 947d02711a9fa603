// /metrics on its own listener: requests timed by route template (never the raw path), the
// product's counters moved by real requests, the queues' gauges read from the database at the
// scrape; and every answer's X-Request-Id, taken from a trusted balancer only.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildTestApp } from "../../tests/support/app.ts";
import { startApiServer, uniqueIp, type ApiServer } from "../../tests/support/api-server.ts";
import { PASSWORD, uniqueEmail } from "../../tests/support/auth.ts";
import { solvedPayload } from "../../tests/support/captcha.ts";
import { LEAD_FORMS } from "../../tests/support/leads.ts";
import { openTestPglite } from "../../tests/support/pglite.ts";
import { redisAvailable, TEST_REDIS_URL } from "../../tests/support/redis.ts";
import { FUNCTIONS } from "../../common/functions.ts";
import type { Database } from "../db/database.ts";

const haveRedis = await redisAvailable();

/** The value of one series in a scrape (the metric's name and its labels as written), or 0. */
function valueOf(scrape: string, series: string): number {
  const line = scrape.split("\n").find((l) => l.startsWith(`${series} `));
  return line ? Number(line.slice(series.length + 1)) : 0;
}

describe("the metrics listener", () => {
  let db: Database;
  let server: ApiServer;
  const scrape = async () => {
    const res = await fetch(server.app.metricsUrl!);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^text\/plain; version=0\.0\.4/);
    return res.text();
  };

  beforeAll(async () => {
    db = await openTestPglite();
    server = await startApiServer(db, { env: { METRICS_PORT: "0" } });
  });
  afterAll(async () => {
    await server?.close();
    await db?.close();
  });

  it("serves /metrics on its own port only, never on the public one", async () => {
    expect(new URL(server.app.metricsUrl!).port).not.toBe(new URL(server.url).port);
    expect((await fetch(`${server.url}/metrics`)).status).toBe(404);
    expect((await fetch(server.app.metricsUrl!.replace("/metrics", "/other"))).status).toBe(404);
    const text = await scrape();
    expect(text).toContain("# TYPE process_cpu_seconds_total counter");
    expect(text).toContain("# TYPE nodejs_eventloop_lag_p99_seconds gauge");
    expect(valueOf(text, "revwise_ready")).toBe(1);
    // Without REDIS_URL there is no Redis to reach: the gauge is declared, with no series.
    expect(text).toContain("# TYPE revwise_redis_up gauge");
    expect(text).not.toMatch(/^revwise_redis_up/m);
  });

  it("times requests by method, route template and status code, never by the path sent", async () => {
    const table = `no_such_table_${Date.now()}`;
    const rest = await fetch(`${server.url}/rest/v1/${table}?select=*`, {
      headers: { apikey: server.anonKey },
    });
    expect(rest.status).toBe(404);
    expect((await fetch(`${server.url}/nothing/here-${Date.now()}`)).status).toBe(404);
    await fetch(`${server.url}/livez`, { method: "BREW" }).catch(() => undefined);
    const text = await scrape();
    expect(text).toContain("# TYPE http_server_request_duration_seconds histogram");
    expect(text).toMatch(
      /http_server_request_duration_seconds_count\{http_request_method="GET",http_route="\/rest\/v1\/:table",http_response_status_code="404"\} [1-9]/,
    );
    expect(text).toMatch(
      /http_server_request_duration_seconds_count\{http_request_method="GET",http_route="unmatched",http_response_status_code="404"\} [1-9]/,
    );
    expect(text).not.toContain(table);
    expect(text).not.toContain("here-");
    expect(text).not.toContain("BREW");
  });

  it("counts sign-ins by method and outcome, and refusals by limit", async () => {
    const failures = 'revwise_auth_sign_ins_total{method="password",outcome="failure"}';
    const successes = 'revwise_auth_sign_ins_total{method="password",outcome="success"}';
    const before = await scrape();
    const email = uniqueEmail("metrics");
    const client = server.client({ ip: uniqueIp() });
    await server.admin().auth.admin.createUser({ email, password: PASSWORD, email_confirm: true });
    expect(
      (await client.auth.signInWithPassword({ email, password: "wrong-one-1" })).error,
    ).toMatchObject({ code: "invalid_credentials" });
    expect((await client.auth.signInWithPassword({ email, password: PASSWORD })).error).toBeNull();
    const ip = uniqueIp();
    const statuses: number[] = [];
    for (let i = 0; i < 11; i++)
      statuses.push(
        (
          await server
            .client({ ip })
            .from("newsletter_subscribers")
            .insert({ email: `limit${i}-${Date.now()}@example.com` })
        ).status,
      );
    expect(statuses.at(-1)).toBe(429);
    const after = await scrape();
    expect(valueOf(after, failures) - valueOf(before, failures)).toBe(1);
    expect(valueOf(after, successes) - valueOf(before, successes)).toBe(1);
    const refused = 'revwise_rate_limit_refusals_total{limit="form"}';
    expect(valueOf(after, refused) - valueOf(before, refused)).toBe(1);
    const stored = 'revwise_leads_stored_total{form="newsletter"}';
    expect(valueOf(after, stored) - valueOf(before, stored)).toBe(10);
  });

  it("counts a lead of each form once its transaction commits, never one rolled back", async () => {
    // PostgreSQL refuses one address's leads at COMMIT (a deferred constraint trigger): every
    // statement of their transaction succeeds, and the transaction fails.
    const refused = "refused-at-commit@business.example";
    const tables = Object.values(LEAD_FORMS).map((f) => f.table as string);
    tables.push("demo_requests", "newsletter_subscribers");
    await db.exec(`CREATE FUNCTION public.refuse_at_commit() RETURNS trigger LANGUAGE plpgsql
      AS $$ BEGIN RAISE EXCEPTION 'refused at commit'; END $$;
      ${tables
        .map(
          (table) => `CREATE CONSTRAINT TRIGGER refuse_at_commit AFTER INSERT ON public.${table}
            DEFERRABLE INITIALLY DEFERRED FOR EACH ROW WHEN (NEW.email = '${refused}')
            EXECUTE FUNCTION public.refuse_at_commit();`,
        )
        .join("\n")}`);
    const headers = {
      apikey: server.anonKey,
      authorization: `Bearer ${server.anonKey}`,
      "content-type": "application/json",
    };
    const rest = (table: string) => async (email: string) =>
      server.fetch(`${server.url}/rest/v1/${table}`, {
        method: "POST",
        headers: { ...headers, prefer: "return=minimal", "x-forwarded-for": uniqueIp() },
        body: JSON.stringify({ email }),
      });
    const lead = (name: keyof typeof LEAD_FORMS) => async (email: string) => {
      const ip = uniqueIp();
      return server.fetch(`${server.url}/functions/v1/${name}`, {
        method: "POST",
        headers: { ...headers, "x-forwarded-for": ip },
        body: JSON.stringify({
          ...LEAD_FORMS[name].body,
          email,
          captcha: await solvedPayload(server.url, ip),
        }),
      });
    };
    const forms = {
      watch_demo: rest("demo_requests"),
      newsletter: rest("newsletter_subscribers"),
      request_access: lead(FUNCTIONS.requestAccess),
      contact: lead(FUNCTIONS.contact),
      request_demo: lead(FUNCTIONS.requestDemo),
    };
    try {
      for (const [form, post] of Object.entries(forms)) {
        const series = `revwise_leads_stored_total{form="${form}"}`;
        const before = valueOf(await scrape(), series);
        const refusal = await post(refused);
        expect(refusal.ok, `${form}: ${await refusal.text()}`).toBe(false);
        expect(valueOf(await scrape(), series), `${form} rolled back`).toBe(before);
        const stored = await post(uniqueEmail(form).replace("@example.com", "@business.example"));
        expect(stored.ok, `${form}: ${await stored.text()}`).toBe(true);
        expect(valueOf(await scrape(), series), `${form} committed`).toBe(before + 1);
      }
      for (const table of tables)
        expect(
          await db.query(`SELECT 1 FROM public.${table} WHERE email = $1`, [refused]),
          table,
        ).toEqual([]);
    } finally {
      await db.exec("DROP FUNCTION public.refuse_at_commit() CASCADE");
    }
  });

  it("counts a refusal of the email budgets under the budget's family", async () => {
    const refused = 'revwise_rate_limit_refusals_total{limit="account_budget"}';
    const before = valueOf(await scrape(), refused);
    const ip = uniqueIp();
    const statuses: number[] = [];
    // RATE_LIMIT_EMAIL_IP (10 an hour) account emails from one address, then one more.
    for (let i = 0; i < 11; i++) {
      const { error } = await server
        .client({ ip })
        .auth.resetPasswordForEmail(uniqueEmail(`budget${i}`));
      statuses.push(error?.status ?? 200);
    }
    expect(statuses.at(-1)).toBe(429);
    expect(valueOf(await scrape(), refused) - before).toBe(1);
  });

  it("reads the queues from the database at each scrape", async () => {
    await db.query(
      `INSERT INTO mail.outbox (kind, to_address, subject, text_body, html_body, next_attempt_at, created_at)
       VALUES ('test', 'late@example.com', 's', 't', '<p>t</p>', now() + interval '1 hour', now() - interval '10 minutes')`,
    );
    const text = await scrape();
    expect(valueOf(text, 'revwise_queue_items{queue="email",state="scheduled"}')).toBeGreaterThan(
      0,
    );
    expect(valueOf(text, 'revwise_queue_oldest_waiting_seconds{queue="email"}')).toBeGreaterThan(
      590,
    );
    expect(text).toContain('revwise_queue_items{queue="webhook",state="due"}');
    expect(text).toContain("revwise_lead_digests_due ");
    await db.query("DELETE FROM mail.outbox WHERE to_address = 'late@example.com'");
  });

  // Last: the registry is the process's, so this server's series shows in every scrape after it.
  it.skipIf(!haveRedis)("says with REDIS_URL whether Redis answers, 1 or 0", async () => {
    const shared = await startApiServer(db, {
      env: { METRICS_PORT: "0", REDIS_URL: TEST_REDIS_URL },
    });
    try {
      // The series' line itself (valueOf reads a missing series as 0).
      const read = async () =>
        (await (await fetch(shared.app.metricsUrl!)).text())
          .split("\n")
          .filter((line) => line.startsWith("revwise_redis_up"));
      expect(await read()).toEqual(['revwise_redis_up{store="redis"} 1']);
      shared.app.redis!.disconnect();
      expect(await read()).toEqual(['revwise_redis_up{store="redis"} 0']);
    } finally {
      await shared.close();
    }
  });
});

describe("request ids", () => {
  let db: Database;
  beforeAll(async () => {
    db = await openTestPglite();
  });
  afterAll(async () => {
    await db?.close();
  });

  it("takes X-Request-Id from a trusted balancer, and makes one otherwise", async () => {
    const trusting = await buildTestApp(db, { env: { TRUST_PROXY: "loopback" }, site: null });
    const direct = await buildTestApp(db, { site: null });
    try {
      const sent = { "x-request-id": "lb-4711-abc" };
      const fromBalancer = await trusting.inject({ url: "/livez", headers: sent });
      expect(fromBalancer.headers["x-request-id"]).toBe("lb-4711-abc");
      const fromClient = await direct.inject({ url: "/livez", headers: sent });
      expect(fromClient.headers["x-request-id"]).toMatch(/^[0-9a-f-]{36}$/);
      // An id that cannot be one (spaces, too long) is replaced, even from the balancer.
      const odd = await trusting.inject({
        url: "/livez",
        headers: { "x-request-id": "two words" },
      });
      expect(odd.headers["x-request-id"]).toMatch(/^[0-9a-f-]{36}$/);
      // Errors carry it too, in each protocol's shape.
      const refused = await direct.inject({ url: "/auth/v1/user" });
      expect(refused.statusCode).toBe(401);
      expect(refused.headers["x-request-id"]).toMatch(/^[0-9a-f-]{36}$/);
      for (const url of ["/rest/v1/nothing", "/no/route/here", "/auth/v1/%zz"]) {
        const answer = await direct.inject({ url });
        expect(answer.statusCode, url).toBeGreaterThanOrEqual(400);
        expect(answer.headers["x-request-id"], url).toMatch(/^[0-9a-f-]{36}$/);
      }
      const ids = new Set(
        await Promise.all(
          [1, 2, 3].map(async () => (await direct.inject("/livez")).headers["x-request-id"]),
        ),
      );
      expect(ids.size).toBe(3);
    } finally {
      await trusting.close();
      await direct.close();
    }
  });
});
