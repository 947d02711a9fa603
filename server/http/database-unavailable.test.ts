// A database that cannot be reached (a real PostgreSQL server, stopped) is answered 503 with
// Retry-After in each protocol's shape, never 500; the same app serves again once it is back.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FUNCTIONS } from "../../common/functions.ts";
import { startApiServer, type ApiServer } from "../../tests/support/api-server.ts";
import { solvedPayload } from "../../tests/support/captcha.ts";
import { startOwnPostgres } from "../../tests/support/own-postgres.ts";
import type { Database } from "../db/database.ts";
import { openPostgres } from "../db/postgres.ts";

const pg = await startOwnPostgres();
let db: Database;
let server: ApiServer;

beforeAll(async () => {
  if (!pg) return;
  db = await openPostgres(pg.url, 4);
  server = await startApiServer(db);
});

afterAll(async () => {
  await server?.close();
  await db?.close();
  pg?.destroy();
});

describe.skipIf(!pg)("database unavailable", () => {
  it("answers 503 with Retry-After in the shape of /rest, /auth, /functions and the root", async () => {
    const headers = { apikey: server.anonKey, "content-type": "application/json" };
    const captcha = await solvedPayload(server.url);
    pg!.stop();
    try {
      const rest = await fetch(`${server.url}/rest/v1/newsletter_subscribers`, {
        method: "POST",
        headers,
        body: JSON.stringify({ email: "down@revwise.example" }),
      });
      expect([rest.status, rest.headers.get("retry-after")]).toEqual([503, "1"]);
      expect(await rest.json()).toEqual({
        code: "PGRST000",
        details: null,
        hint: null,
        message: "Database connection error. Retrying the connection.",
      });

      const auth = await fetch(`${server.url}/auth/v1/signup`, {
        method: "POST",
        headers,
        body: JSON.stringify({ email: "down@revwise.example", password: "a-Long-passphrase-42" }),
      });
      expect([auth.status, auth.headers.get("retry-after")]).toEqual([503, "1"]);
      expect(await auth.json()).toMatchObject({
        code: "unexpected_failure",
        error_code: "unexpected_failure",
      });

      const fn = await fetch(`${server.url}/functions/v1/${FUNCTIONS.contact}`, {
        method: "POST",
        headers: { ...headers, authorization: `Bearer ${server.anonKey}` },
        body: JSON.stringify({
          name: "Down Test",
          email: "down@revwise.example",
          phone: "555 0100",
          message: "Sent while the database was down",
          captcha,
        }),
      });
      expect([fn.status, fn.headers.get("retry-after")]).toEqual([503, "1"]);
      expect(await fn.json()).toMatchObject({ code: "unavailable" });

      const root = await fetch(`${server.url}/_dev/mailbox`);
      expect([root.status, root.headers.get("retry-after")]).toEqual([503, "1"]);
      expect(await root.json()).toMatchObject({ statusCode: 503, error: "Service Unavailable" });

      expect((await fetch(`${server.url}/readyz`)).status).toBe(503);
      expect((await fetch(`${server.url}/livez`)).status).toBe(200);
    } finally {
      pg!.start();
    }
    const again = await fetch(`${server.url}/rest/v1/newsletter_subscribers`, {
      method: "POST",
      headers,
      body: JSON.stringify({ email: "back@revwise.example" }),
    });
    expect(again.status).toBe(201);
    expect((await fetch(`${server.url}/readyz`)).status).toBe(200);
  });
});
