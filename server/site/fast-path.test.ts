// The site's plain GETs and HEADs answered before the framework: exactly what the framework's site
// route answers (compared request by request against app.inject, which always goes through the
// framework), every other request left to the framework, and in the running server each answer's
// access line, duration for /metrics and page view.
import type { FastifyBaseLogger, FastifyInstance, InjectOptions } from "fastify";
import crypto from "node:crypto";
import { once } from "node:events";
import http from "node:http";
import net from "node:net";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { tempDir } from "../../tests/support/app.ts";
import { openTestPglite } from "../../tests/support/pglite.ts";
import { freePort } from "../../tests/support/ports.ts";
import { startServer } from "../../tests/support/server-process.ts";
import { fixtureApp, writeFixture } from "../../tests/support/site-fixture.ts";
import { openPglite } from "../db/pglite.ts";
import { SiteFastPath } from "./fast-path.ts";
import { loadSite } from "./site-files.ts";

type Answer = { status: number; headers: Record<string, string>; body: Buffer };

/** Headers that differ between two answers of the same request by nature, or by transport. */
const PER_ANSWER = new Set(["date", "connection", "keep-alive", "x-request-id"]);
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

function comparable(status: number, headers: http.IncomingHttpHeaders, body: Buffer): Answer {
  expect(String(headers["x-request-id"])).toMatch(UUID);
  const kept = Object.entries(headers).filter(([name]) => !PER_ANSWER.has(name));
  return { status, headers: Object.fromEntries(kept.map(([k, v]) => [k, String(v)])), body };
}

/** The request as sent over HTTP to `origin`, with the body as sent (no content coding undone). */
function overHttp(origin: string, request: InjectOptions): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      `${origin}${request.url as string}`,
      { method: request.method ?? "GET", headers: request.headers as http.OutgoingHttpHeaders },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        res.on("end", () =>
          resolve(comparable(res.statusCode!, res.headers, Buffer.concat(chunks))),
        );
      },
    );
    req.on("error", reject);
    req.end(request.payload as string | undefined);
  });
}

/** What a raw request written on a new connection gets back: its status line. */
function statusLineOf(origin: string, raw: string): Promise<string> {
  const { hostname, port } = new URL(origin);
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(port), hostname, () => socket.write(raw));
    let got = "";
    socket.on("data", (c: Buffer) => {
      got += c.toString("latin1");
      if (got.includes("\r\n")) {
        socket.destroy();
        resolve(got.slice(0, got.indexOf("\r\n")));
      }
    });
    socket.on("error", reject);
  });
}

describe("site files answered before the framework", () => {
  let app: FastifyInstance;
  let origin: string;
  const fastPath = new SiteFastPath();
  const db = openTestPglite();
  beforeAll(async () => {
    app = await fixtureApp(await db, { fastPath });
    origin = await app.listen({ port: 0, host: "127.0.0.1" });
  });
  afterAll(async () => {
    await app.close();
    await (await db).close();
  });

  /** Sends `request` over HTTP and through the framework; both answers, and whether it went fast. */
  async function bothWays(request: InjectOptions) {
    const before = fastPath.served;
    const fast = await overHttp(origin, request);
    const answered = fastPath.served - before;
    const injected = await app.inject(request);
    const framework = comparable(
      injected.statusCode,
      injected.headers as http.IncomingHttpHeaders,
      injected.rawPayload,
    );
    return { fast, framework, answered };
  }

  const PATHS = [
    "/",
    "/faq",
    "/faq?utm_source=launch&utm_campaign=autumn",
    "/blog/ai-sales",
    "/blog/ai-sales.data",
    "/assets/entry-abc123.js",
    "/favicon.svg",
    "/sitemap.xml",
  ];
  const CODINGS = [undefined, "gzip", "br", "gzip, br", "identity", "gzip;q=0, br;q=0", "*"];

  it("answers a GET or HEAD of every page and file exactly as the framework does, in every coding", async () => {
    for (const url of PATHS)
      for (const method of ["GET", "HEAD"] as const)
        for (const coding of CODINGS) {
          const headers = coding === undefined ? {} : { "accept-encoding": coding };
          const at = `${method} ${url} ${coding}`;
          const { fast, framework, answered } = await bothWays({ method, url, headers });
          expect(answered, at).toBe(1);
          expect(fast, at).toEqual(framework);
          expect(fast.status, at).toBe(200);
        }
  });

  it("answers If-None-Match naming the current tag with the framework's 304", async () => {
    for (const url of ["/faq", "/assets/entry-abc123.js", "/favicon.svg"])
      for (const coding of ["gzip", "br", "identity"]) {
        const headers = { "accept-encoding": coding };
        const { etag } = (await overHttp(origin, { url, headers })).headers;
        for (const named of [etag!, `W/${etag}`, `"other", ${etag}`, "*"])
          for (const method of ["GET", "HEAD"] as const) {
            const at = `${method} ${url} ${coding} ${named}`;
            const request = { method, url, headers: { ...headers, "if-none-match": named } };
            const { fast, framework, answered } = await bothWays(request);
            expect(answered, at).toBe(1);
            expect(fast, at).toEqual(framework);
            expect(fast.status, at).toBe(304);
          }
        const stale = { url, headers: { ...headers, "if-none-match": '"stale"' } };
        expect((await bothWays(stale)).fast.status).toBe(200);
      }
  });

  it("leaves every other request to the framework", async () => {
    const others: InjectOptions[] = [
      { method: "POST", url: "/faq" },
      { method: "PUT", url: "/faq" },
      { method: "OPTIONS", url: "/assets/entry-abc123.js" },
      { url: "/faq/" },
      { url: "/resources/blog/ai-sales" },
      { url: "/f%61q" },
      { url: "/no/such/page" },
      { url: "/assets/gone.js" },
      { url: "/auth/v1/settings" },
      {
        url: "/faq",
        headers: { "content-type": "text/plain", "content-length": "3" },
        payload: "abc",
      },
    ];
    for (const request of others) {
      const at = `${request.method ?? "GET"} ${request.url as string}`;
      const { fast, framework, answered } = await bothWays(request);
      expect(answered, at).toBe(0);
      expect(fast, at).toEqual(framework);
    }
    // A Host header missing or sent twice is refused by the framework, as anywhere else.
    const before = fastPath.served;
    expect(await statusLineOf(origin, "GET /faq HTTP/1.1\r\n\r\n")).toBe(
      "HTTP/1.1 400 Bad Request",
    );
    expect(
      await statusLineOf(origin, "GET /faq HTTP/1.1\r\nHost: a.example\r\nHost: b.example\r\n\r\n"),
    ).toBe("HTTP/1.1 400 Bad Request");
    expect(await statusLineOf(origin, "GET /faq HTTP/1.1\r\nHost: a.example/faq\r\n\r\n")).toBe(
      "HTTP/1.1 400 Bad Request",
    );
    expect(fastPath.served).toBe(before);
  });

  it("leaves requests to the framework once the server drains, which closes their connections", async () => {
    app.readiness.drain();
    const { fast, answered } = await bothWays({ url: "/faq" });
    expect(answered).toBe(0);
    expect(fast.status).toBe(200);
    const res = await new Promise<http.IncomingMessage>((resolve) =>
      http.get(`${origin}/faq`, resolve),
    );
    res.resume();
    expect(res.headers.connection).toBe("close");
  });
});

describe("a request refused after a site file on the same connection", () => {
  it("is refused after the whole file was sent, however slowly the client reads it", async () => {
    const db = await openTestPglite();
    // More than the system's socket buffers hold: most of it waits in the server's own buffer.
    const large = crypto.randomBytes(32 * 1024 * 1024);
    const fastPath = new SiteFastPath();
    const app = await fixtureApp(db, { fastPath, files: { "assets/large-abc123.bin": large } });
    try {
      await app.listen({ port: 0, host: "127.0.0.1" });
      const refused = new Promise<void>((resolve) =>
        app.server.once("clientError", () => resolve()),
      );
      const socket = net.connect((app.server.address() as net.AddressInfo).port, "127.0.0.1");
      await once(socket, "connect");
      socket.pause();
      socket.write("GET /assets/large-abc123.bin HTTP/1.1\r\nHost: t\r\n\r\nNOT HTTP\r\n\r\n");
      await refused;
      expect(fastPath.served).toBe(1);
      const chunks: Buffer[] = [];
      socket.on("data", (chunk: Buffer) => chunks.push(chunk));
      socket.resume();
      await once(socket, "close");
      const got = Buffer.concat(chunks);
      const bodyAt = got.indexOf("\r\n\r\n") + 4;
      expect(got.subarray(0, bodyAt).toString("latin1")).toMatch(/^HTTP\/1\.1 200 OK\r\n/);
      expect(got.subarray(bodyAt, bodyAt + large.length).equals(large)).toBe(true);
      expect(got.subarray(bodyAt + large.length).toString("latin1")).toMatch(
        /^HTTP\/1\.1 400 Bad Request\r\n/,
      );
    } finally {
      await app.close();
      await db.close();
    }
  });
});

describe("the running server's site answers", () => {
  it("each has its access line, its duration for /metrics and, for a page, its page view", async () => {
    const dataDir = tempDir();
    const siteDir = path.join(dataDir, "site");
    writeFixture(siteDir);
    const metricsPort = await freePort();
    const server = await startServer({
      DATA_DIR: dataDir,
      SITE_DIR: siteDir,
      METRICS_PORT: String(metricsPort),
      TRUST_PROXY: "127.0.0.1",
    });
    const browser = "Mozilla/5.0 (X11; Linux x86_64; rv:132.0) Gecko/20100101 Firefox/132.0";
    const page = await fetch(`${server.url}/faq?token=sekrit&utm_campaign=autumn`, {
      headers: {
        "user-agent": browser,
        "x-request-id": "balancer-7",
        "x-forwarded-for": "203.0.113.9",
      },
    });
    await page.arrayBuffer();
    expect(page.headers.get("x-request-id")).toBe("balancer-7");
    const script = `${server.url}/assets/entry-abc123.js`;
    const etag = (await fetch(script, { method: "HEAD" })).headers.get("etag")!;
    const unchanged = await fetch(script, { headers: { "if-none-match": etag } });
    expect(unchanged.status).toBe(304);
    const made = unchanged.headers.get("x-request-id");
    expect(made).toMatch(UUID);

    // The same file under an escaped path is answered by the framework: its line is the model.
    await (await fetch(`${server.url}/f%61q`)).arrayBuffer();

    const metrics = await (await fetch(`http://127.0.0.1:${metricsPort}/metrics`)).text();
    const count = (method: string, status: number) =>
      new RegExp(
        `^http_server_request_duration_seconds_count\\{http_request_method="${method}",http_route="/\\*",http_response_status_code="${status}"\\} (\\d+)$`,
        "m",
      ).exec(metrics)?.[1];
    expect([count("GET", 200), count("HEAD", 200), count("GET", 304)]).toEqual(["2", "1", "1"]);

    expect(await server.stop("SIGTERM")).toBe(0);
    const lines = server.logs
      .filter((l) => l.startsWith("{"))
      .map((l) => JSON.parse(l) as Record<string, unknown>)
      .filter((l) => typeof l.req === "object");
    const framework = lines.pop()!;
    expect(framework.req).toMatchObject({ url: "/f%61q" });
    const shape = (line: Record<string, unknown>) =>
      JSON.stringify(line, (_key, value: unknown) =>
        typeof value === "object" ? (value as object) : typeof value,
      );
    for (const line of lines) expect(shape(line)).toBe(shape(framework));
    expect(lines.map((l) => [l.reqId, l.req, l.res, l.msg])).toEqual([
      [
        "balancer-7",
        { method: "GET", url: "/faq?token=%5Bredacted%5D&utm_campaign=autumn", ip: "203.0.113.9" },
        { statusCode: 200 },
        "request completed",
      ],
      [
        expect.stringMatching(UUID),
        { method: "HEAD", url: "/assets/entry-abc123.js", ip: "127.0.0.1" },
        { statusCode: 200 },
        "request completed",
      ],
      [
        made,
        { method: "GET", url: "/assets/entry-abc123.js", ip: "127.0.0.1" },
        { statusCode: 304 },
        "request completed",
      ],
    ]);
    for (const line of lines) expect(line.responseTime).toBeTypeOf("number");
    expect(JSON.stringify(server.logs)).not.toContain("sekrit");

    // The page view was counted, and written when the server stopped.
    const stored = await openPglite(path.join(dataDir, "pglite"));
    try {
      expect(await stored.query("SELECT path, campaign, views FROM analytics.page_views")).toEqual([
        { path: "/faq", campaign: "autumn", views: 1 },
      ]);
    } finally {
      await stored.close();
    }
  });
});

describe("a failure of the path's own work", () => {
  it("leaves the request to the framework before the answer is written, and is logged after it", async () => {
    const dir = tempDir();
    writeFixture(dir);
    const site = await loadSite(dir, { anonKey: "k", siteUrl: "https://revwise.example" });
    const errors: unknown[] = [];
    const log = { level: "silent", error: (line: unknown) => errors.push(line) };
    let failing: "before" | "after" | undefined;
    const fastPath = new SiteFastPath();
    fastPath.serve({
      site,
      log: log as unknown as FastifyBaseLogger,
      hsts: false,
      trustProxy: false,
      draining: () => {
        if (failing === "before") throw new Error("before the answer");
        return false;
      },
      onPage: () => {
        if (failing === "after") throw new Error("after the answer");
      },
      timed: false,
    });
    const server = fastPath.serverFactory((_request, response) => response.end("framework"), {
      keepAliveTimeout: 5000,
      requestTimeout: 0,
      connectionTimeout: 0,
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const origin = `http://127.0.0.1:${(server.address() as net.AddressInfo).port}`;
    try {
      const body = async () => (await fetch(`${origin}/faq`)).text();
      expect(await body()).toContain("<h1>FAQ</h1>");
      failing = "after";
      expect(await body()).toContain("<h1>FAQ</h1>");
      failing = "before";
      expect(await body()).toBe("framework");
      failing = undefined;
      expect(await body()).toContain("<h1>FAQ</h1>");
      expect(errors).toHaveLength(2);
    } finally {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
