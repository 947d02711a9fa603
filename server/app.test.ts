// The HTTP platform: security headers, JSON bodies, body limits, health, protocol-shaped errors.
import { gzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { FastifyInstance } from "fastify";
import { buildTestApp } from "../tests/support/app.ts";
import { describeEachDatabase, describeWithDatabase } from "../tests/support/databases.ts";
import { rawConnect } from "../tests/support/raw-http.ts";
import { BODY_LIMIT } from "./http/body-limit.ts";
import { openPostgres } from "./db/postgres.ts";
import { openTestPglite } from "../tests/support/pglite.ts";

describeWithDatabase("HTTP platform", (ctx) => {
  let app: FastifyInstance;
  beforeAll(async () => {
    app = await buildTestApp(ctx.db);
  });
  afterAll(() => app.close());

  it("answers GET /auth/v1/health with 200 JSON when the database answers", async () => {
    const res = await app.inject({ method: "GET", url: "/auth/v1/health" });
    expect(res.statusCode).toBe(200);
    expect(res.headers["content-type"]).toMatch(/^application\/json/);
    expect(res.json()).toMatchObject({ name: "GoTrue" });
  });

  it("puts the security headers on every response, errors included", async () => {
    for (const url of ["/auth/v1/health", "/auth/v1/no-such-endpoint"]) {
      const res = await app.inject({ method: "GET", url });
      expect(res.headers["x-content-type-options"]).toBe("nosniff");
      expect(res.headers["referrer-policy"]).toBe("strict-origin-when-cross-origin");
      expect(res.headers["x-frame-options"]).toBe("DENY");
      expect(res.headers["content-security-policy"]).toContain("frame-ancestors 'none'");
      expect(res.headers["content-security-policy"]).not.toContain("unsafe-inline");
      expect(res.headers["strict-transport-security"]).toBeUndefined(); // not in test/development
    }
  });

  it("answers unknown auth paths with a GoTrue-shaped 404, never Fastify's own body", async () => {
    const res = await app.inject({ method: "POST", url: "/auth/v1/nope", payload: {} });
    expect(res.statusCode).toBe(404);
    expect(res.headers["x-supabase-api-version"]).toBe("2024-01-01");
    expect(res.json()).toEqual({
      code: "not_found",
      error_code: "not_found",
      message: "Not found",
      msg: "Not found",
    });
  });

  it("accepts a JSON content type with an empty body (supabase-js's POST /logout)", async () => {
    const res = await app.inject({
      method: "POST",
      url: "/auth/v1/nope",
      headers: { "content-type": "application/json;charset=UTF-8", "content-length": "0" },
    });
    expect(res.statusCode).toBe(404); // reached routing, not rejected as a bad body
    expect(res.json().code).toBe("not_found");
  });

  it("answers malformed JSON with 400 bad_json", async () => {
    const res = await app.inject({
      method: "POST",
      url: "/auth/v1/nope",
      headers: { "content-type": "application/json" },
      payload: "{nope",
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: "bad_json" });
  });

  it("refuses compressed request bodies with 400 in each protocol's shape, storing nothing", async () => {
    const body = gzipSync(
      JSON.stringify({ email: "gzipped@example.com", password: "x".repeat(12) }),
    );
    const headers = {
      apikey: app.keys.anonKey,
      "content-type": "application/json",
      "content-encoding": "gzip",
    };
    const post = (url: string) => app.inject({ method: "POST", url, headers, payload: body });
    const rest = await post("/rest/v1/newsletter_subscribers");
    expect(rest.statusCode).toBe(400);
    expect(rest.json()).toMatchObject({ code: "PGRST102" });
    const auth = await post("/auth/v1/signup");
    expect(auth.statusCode).toBe(400);
    expect(auth.json()).toMatchObject({ code: "bad_json" });
    const fn = await post("/functions/v1/contact-notification");
    expect(fn.statusCode).toBe(400);
    expect(fn.json()).toMatchObject({ code: "bad_json" });
    const stored = await ctx.db.query(
      "SELECT (SELECT count(*) FROM public.newsletter_subscribers WHERE email = $1)::int AS leads, (SELECT count(*) FROM auth.users WHERE email = $1)::int AS users",
      ["gzipped@example.com"],
    );
    expect(stored).toEqual([{ leads: 0, users: 0 }]);
  });

  it("refuses prototype poisoning in JSON bodies", async () => {
    const res = await app.inject({
      method: "POST",
      url: "/auth/v1/nope",
      headers: { "content-type": "application/json" },
      payload: '{"__proto__": {"admin": true}}',
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().code).toBe("bad_json");
  });

  it("limits request bodies and answers 413 in the protocol's shape", async () => {
    const res = await app.inject({
      method: "POST",
      url: "/auth/v1/nope",
      headers: { "content-type": "application/json" },
      payload: JSON.stringify({ pad: "x".repeat(BODY_LIMIT + 1) }),
    });
    expect(res.statusCode).toBe(413);
    expect(res.json()).toMatchObject({ code: "request_entity_too_large" });
  });
});

describeEachDatabase("health when the database is gone", (ctx) => {
  it("answers 503 in GoTrue's shape instead of crashing", async () => {
    const db = ctx.kind === "pglite" ? await openTestPglite() : await openPostgres(ctx.url!, 1);
    const app = await buildTestApp(db);
    await db.close();
    const res = await app.inject({ method: "GET", url: "/auth/v1/health" });
    expect(res.statusCode).toBe(503);
    expect(res.json()).toMatchObject({
      code: "unexpected_failure",
      message: "Database unavailable",
    });
    await app.close();
  });
});

describe("HSTS", () => {
  const db = openTestPglite();
  afterAll(async () => (await db).close());

  /** Strict-Transport-Security of an answer, a router's refusal and a request Node cannot parse. */
  async function hstsOf(env: Record<string, string>) {
    const app = await buildTestApp(await db, { env });
    try {
      const base = await app.listen({ port: 0, host: "127.0.0.1" });
      const answers = await Promise.all(
        ["/livez", "/auth/v1/%ZZ"].map((path) => fetch(`${base}${path}`)),
      );
      const conn = await rawConnect(Number(new URL(base).port));
      conn.socket.write("GET /faq\tx HTTP/1.1\r\nHost: x\r\n\r\n");
      const { status, head } = await conn.response();
      conn.socket.destroy();
      return [
        ...answers.map((res) => [res.status, res.headers.get("strict-transport-security")]),
        [status, /\r\nstrict-transport-security: ([^\r]*)/i.exec(head)?.[1] ?? null],
      ];
    } finally {
      await app.close();
    }
  }

  it("is sent by a production site whose address is https, on every answer", async () => {
    const hsts = "max-age=63072000; includeSubDomains";
    expect(
      await hstsOf({ NODE_ENV: "production", SITE_URL: "https://www.revwise.example" }),
    ).toEqual([
      [200, hsts],
      [400, hsts],
      [400, hsts],
    ]);
  });

  it("is never sent by a site served over plain HTTP, nor outside production", async () => {
    for (const env of [
      { NODE_ENV: "production", SITE_URL: "http://localhost:3000" },
      { NODE_ENV: "development", SITE_URL: "https://www.revwise.example" },
    ])
      expect(await hstsOf(env)).toEqual([
        [200, null],
        [400, null],
        [400, null],
      ]);
  });
});
