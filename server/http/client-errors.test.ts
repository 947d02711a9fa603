// What Node refuses before any route runs (headers too large, a malformed request line or chunked
// body, a request too slow), over a real socket: each answered in the shape of the protocol of the
// request's path (PostgREST's under /rest/v1, GoTrue's under /auth/v1, the functions' under
// /functions/v1, the site's elsewhere), with the security headers and never kept by a cache; and
// after the answers of the requests sent before it on the same connection (pipelined).
import { afterAll, beforeAll, expect, it } from "vitest";
import type { Database } from "../db/database.ts";
import { startApiServer, type ApiServer } from "../../tests/support/api-server.ts";
import { waitUntil } from "../../tests/support/poll.ts";
import { rawConnect } from "../../tests/support/raw-http.ts";
import { openTestPglite } from "../../tests/support/pglite.ts";

let db: Database;
let server: ApiServer;
beforeAll(async () => {
  db = await openTestPglite();
  server = await startApiServer(db, { env: { REQUEST_TIMEOUT_MS: "1000" } });
});
afterAll(async () => {
  await server.close();
  await db.close();
});

/** The header fields of a response head, by lower-case name. */
const headersOf = (head: string) =>
  Object.fromEntries(
    head
      .split("\r\n")
      .slice(1)
      .map((line) => [
        line.slice(0, line.indexOf(":")).toLowerCase(),
        line.slice(line.indexOf(":") + 1).trim(),
      ]),
  );

/** The answer to `bytes` sent on a new connection (and, when given, then trickled slowly). */
async function answerTo(bytes: string, trickle = false) {
  const conn = await rawConnect(Number(new URL(server.url).port));
  conn.socket.write(bytes);
  const drip = trickle ? setInterval(() => conn.socket.write(" "), 100) : undefined;
  const { status, head, body } = await conn.response().finally(() => clearInterval(drip));
  conn.socket.destroy();
  return { status, headers: headersOf(head), body: JSON.parse(body) as Record<string, unknown> };
}

/** Each protocol's shape of an answer with this status (a refusal of the request, or a 503). */
const SHAPES: [string, (status: number) => Record<string, unknown>][] = [
  [
    "/rest/v1/leads",
    (status) => ({
      code: status === 503 ? "PGRST000" : "PGRST100",
      details: null,
      hint: null,
      message: expect.any(String),
    }),
  ],
  [
    "/auth/v1/user",
    (status) => {
      const code = status === 503 ? "unexpected_failure" : "validation_failed";
      return { code, error_code: code, message: expect.any(String), msg: expect.any(String) };
    },
  ],
  [
    "/functions/v1/sessions",
    (status) => ({
      code: status === 503 ? "unavailable" : "bad_request",
      message: expect.any(String),
    }),
  ],
  [
    "/faq",
    (status) => ({ statusCode: status, error: expect.any(String), message: expect.any(String) }),
  ],
];

const big = "a".repeat(20_000);
const CASES: [string, (path: string) => string, number, boolean?][] = [
  [
    "a request line over the header limit",
    (p) => `GET ${p}?x=${big} HTTP/1.1\r\nHost: t\r\n\r\n`,
    431,
  ],
  ["headers over the limit", (p) => `GET ${p} HTTP/1.1\r\nHost: t\r\nx-big: ${big}\r\n\r\n`, 431],
  ["a malformed request line", (p) => `GET ${p}\tx HTTP/1.1\r\nHost: t\r\n\r\n`, 400],
  [
    "a malformed chunked body",
    (p) =>
      `POST ${p} HTTP/1.1\r\nHost: t\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n{}\r\n`,
    400,
  ],
  [
    "a body too slow",
    (p) =>
      `POST ${p} HTTP/1.1\r\nHost: t\r\nContent-Type: application/json\r\nContent-Length: 60000\r\n\r\n{`,
    408,
    true,
  ],
];

it.each(CASES)(
  "answers %s in the shape of the path's protocol",
  async (_what, bytes, status, slow) => {
    for (const [path, shape] of SHAPES) {
      const answer = await answerTo(bytes(path), slow);
      expect([path, answer.status, answer.body]).toEqual([path, status, shape(status)]);
      expect(answer.headers).toMatchObject({
        "content-type": "application/json; charset=utf-8",
        "x-content-type-options": "nosniff",
        "cache-control": "no-store",
        connection: "close",
      });
    }
  },
);

it("answers a request that arrives while the server closes with 503 in its protocol's shape", async () => {
  const closing = await startApiServer(db);
  const port = Number(new URL(closing.url).port);
  // One request on each connection whose body has not arrived: closing waits for them.
  const held = await Promise.all(
    SHAPES.map(async ([path]) => {
      const conn = await rawConnect(port);
      conn.socket.write(
        `POST ${path} HTTP/1.1\r\nHost: t\r\nContent-Type: application/json\r\nContent-Length: 2\r\nExpect: 100-continue\r\n\r\n`,
      );
      // The server's 100 Continue: it has read the request, so closing will wait for it.
      await waitUntil(
        async () => conn.received().startsWith("HTTP/1.1 100"),
        5000,
        () => conn.received(),
      );
      return conn;
    }),
  );
  const closed = closing.close();
  await waitUntil(
    async () => !closing.app.server.listening,
    5000,
    () => "still listening",
  );
  // Each body ends, and another request follows it on the connection, now the server closes.
  for (const [i, [path, shape]] of SHAPES.entries()) {
    const conn = held[i]!;
    conn.socket.write(`{}GET ${path} HTTP/1.1\r\nHost: t\r\n\r\n`);
    await conn.closed;
    // 100 Continue, the first request's answer, then the second's.
    const second = conn.received().split(/(?=HTTP\/1\.1 )/)[2] ?? "";
    const [head = "", body = ""] = second.split("\r\n\r\n");
    expect([path, Number(head.split(" ")[1]), JSON.parse(body)]).toEqual([path, 503, shape(503)]);
    expect(head.toLowerCase()).toContain("retry-after: 1");
    expect(head.toLowerCase()).toContain("x-content-type-options: nosniff");
  }
  await closed;
});

it("answers CONNECT as any other method the path takes no action for, in its protocol's shape, then closes", async () => {
  const port = Number(new URL(server.url).port);
  const ask = async (method: string, target: string) => {
    const conn = await rawConnect(port);
    conn.socket.write(`${method} ${target} HTTP/1.1\r\nHost: t\r\n\r\n`);
    const { status, head, body } = await conn.response();
    conn.socket.destroy();
    return { status, headers: headersOf(head), body: body.replaceAll(method, "METHOD") };
  };
  for (const path of [...SHAPES.map(([p]) => p), "/rest/v1/rpc/resend_email"]) {
    const trace = await ask("TRACE", path);
    const conn = await rawConnect(port);
    conn.socket.write(`CONNECT ${path} HTTP/1.1\r\nHost: t\r\n\r\n`);
    const { status, head, body } = await conn.response();
    // Nothing tunnels here: the connection ends with the answer.
    await conn.closed;
    const headers = headersOf(head);
    expect([path, status, body.replaceAll("CONNECT", "METHOD")]).toEqual([
      path,
      trace.status,
      trace.body,
    ]);
    expect([path, headers.allow]).toEqual([path, trace.headers.allow]);
    expect(headers).toMatchObject({
      "content-type": trace.headers["content-type"],
      "x-content-type-options": "nosniff",
      "content-security-policy": trace.headers["content-security-policy"],
      connection: "close",
    });
  }
  // An authority (CONNECT's own form of target) is no path any route serves: the site's 404.
  const conn = await rawConnect(port);
  conn.socket.write(`CONNECT 127.0.0.1:${port} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n\r\n`);
  const { status, head, body } = await conn.response();
  await conn.closed;
  expect([status, JSON.parse(body)]).toEqual([
    404,
    { statusCode: 404, error: "Not Found", message: `No route for CONNECT 127.0.0.1:${port}` },
  ]);
  expect(headersOf(head)).toMatchObject({ "x-content-type-options": "nosniff" });
});

it("adds nothing to an answer already sent when the rest of its request is too slow", async () => {
  const conn = await rawConnect(Number(new URL(server.url).port));
  // Two Host lines are refused at once, before the body; the body then never finishes.
  conn.socket.write(
    'POST /rest/v1/leads HTTP/1.1\r\nHost: a\r\nHost: b\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"a":',
  );
  const { status } = await conn.response();
  expect(status).toBe(400);
  await conn.closed;
  expect(conn.received().match(/HTTP\/1\.1 \d{3}/g)).toEqual(["HTTP/1.1 400"]);
});

const PIPELINED: [string, string, number][] = [
  ["a malformed request line", "GET /faq\tx HTTP/1.1\r\nHost: t\r\n\r\n", 400],
  ["headers over the limit", `GET /faq HTTP/1.1\r\nHost: t\r\nx-big: ${big}\r\n\r\n`, 431],
  [
    "a malformed chunked body",
    "POST /rest/v1/leads HTTP/1.1\r\nHost: t\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n{}\r\n",
    400,
  ],
  ["headers too slow", "GET /faq HTTP/1.1\r\nHost: t\r\n", 408],
  [
    "a body too slow",
    "POST /rest/v1/leads HTTP/1.1\r\nHost: t\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{",
    408,
  ],
  // Refused at once (two Host lines); its body then never finishes: nothing more is written.
  [
    "a request refused before its body, which is too slow",
    'POST /rest/v1/leads HTTP/1.1\r\nHost: a\r\nHost: b\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"a":',
    400,
  ],
  ["a CONNECT", "CONNECT /rest/v1/leads HTTP/1.1\r\nHost: t\r\n\r\n", 405],
];

it.each(PIPELINED)(
  "answers an insert first when %s follows it on the connection",
  async (what, bytes, status) => {
    const email = `pipelined-${what.replace(/\W+/g, "-").toLowerCase()}@revwise.example`;
    const body = JSON.stringify({ email });
    // The database is held until Node has read (or given up on) the second request, so the
    // insert's answer is still to come when the second request is refused.
    const node = server.app.server;
    const secondRead = new Promise<void>((resolve) => {
      const read = () => {
        node.off("clientError", read).off("connect", read);
        resolve();
      };
      node.on("clientError", read).on("connect", read);
    });
    let held!: () => void;
    const holding = new Promise<void>((resolve) => (held = resolve));
    const holder = db.transaction(async () => {
      held();
      await secondRead;
    });
    await holding;
    const conn = await rawConnect(Number(new URL(server.url).port));
    conn.socket.write(
      `POST /rest/v1/newsletter_subscribers HTTP/1.1\r\nHost: t\r\napikey: ${server.anonKey}\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n${body}${bytes}`,
    );
    await holder;
    await conn.closed;
    expect(conn.received().match(/^HTTP\/1\.1 \d{3}/gm)).toEqual([
      "HTTP/1.1 201",
      `HTTP/1.1 ${status}`,
    ]);
    const rows = await db.query("SELECT 1 FROM public.newsletter_subscribers WHERE email = $1", [
      email,
    ]);
    expect(rows).toHaveLength(1);
  },
);
