// No HEAD request changes anything: a mail provider's link scanner sends HEAD (and GET) to every
// link of an email, and Fastify answers HEAD on every GET route by running the GET's handler. The
// routes are enumerated from the app itself (a new GET route is walked without touching this
// file), each is sent HEAD armed as its GET would do its work (a live link token, the user's, an
// admin's and the anon key, real ids in its parameters), and every table and the mail outbox are
// compared before and after. /auth/v1 answers HEAD as GoTrue does (chi routes no HEAD to a GET:
// 405 with the path's methods in Allow), so a link to /auth/v1/verify is still unused afterwards.
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, expect, it } from "vitest";
import { buildApp } from "./app.ts";
import { migrate } from "./db/migrate.ts";
import { loadKeys, type Keys } from "./security/keys.ts";
import { uniqueIp } from "../tests/support/api-server.ts";
import { testConfig } from "../tests/support/app.ts";
import { PASSWORD } from "../tests/support/auth.ts";
import { memorySite } from "../tests/support/site-fixture.ts";
import { tableDigester, type TableDigest } from "../tests/support/table-digest.ts";
import { describeWithDatabase } from "../tests/support/databases.ts";

describeWithDatabase("HEAD requests", (ctx) => {
  let app: FastifyInstance;
  let keys: Keys;
  /** Every path the app routes, with the methods registered on it (Fastify's HEAD routes too). */
  const routes = new Map<string, Set<string>>();
  let userId: string;
  let userToken: string;
  let digest: () => Promise<TableDigest>;

  beforeAll(async () => {
    const config = testConfig({
      TRUST_PROXY: "loopback",
      DEV_MAILBOX: "true",
      RATE_LIMIT_EMAIL_SENT: "100000",
      RATE_LIMIT_LEAD_EMAIL_SENT: "100000",
    });
    await migrate(ctx.db);
    keys = await loadKeys({ jwtSecret: config.jwtSecret, dataDir: config.dataDir });
    app = await buildApp({
      config,
      db: ctx.db,
      keys,
      site: memorySite(),
      onRoute: (route) => {
        const methods = routes.get(route.url) ?? new Set<string>();
        for (const m of [route.method].flat()) methods.add(m);
        routes.set(route.url, methods);
      },
    });
    const admin = { authorization: `Bearer ${keys.serviceRoleKey}`, apikey: keys.serviceRoleKey };
    const created = await app.inject({
      method: "POST",
      url: "/auth/v1/admin/users",
      headers: admin,
      payload: { email: "head-user@example.com", password: PASSWORD, email_confirm: true },
    });
    expect(created.statusCode).toBe(200);
    userId = created.json().id;
    const signIn = await app.inject({
      method: "POST",
      url: "/auth/v1/token?grant_type=password",
      headers: { apikey: keys.anonKey, "x-forwarded-for": uniqueIp() },
      payload: { email: "head-user@example.com", password: PASSWORD },
    });
    expect(signIn.statusCode).toBe(200);
    userToken = signIn.json().access_token;
    const subscribed = await app.inject({
      method: "POST",
      url: "/rest/v1/newsletter_subscribers",
      headers: { apikey: keys.anonKey, "x-forwarded-for": uniqueIp() },
      payload: { email: "head-reader@example.com", source: { page: "/" } },
    });
    expect(subscribed.statusCode).toBe(201);

    digest = await tableDigester(ctx.db, app);
  });
  afterAll(() => app?.close());

  /** A fresh link for the admin API's user (not sent: the admin API answers it). */
  async function linkToken(type: "magiclink" | "recovery"): Promise<string> {
    const res = await app.inject({
      method: "POST",
      url: "/auth/v1/admin/generate_link",
      headers: { authorization: `Bearer ${keys.serviceRoleKey}`, apikey: keys.serviceRoleKey },
      payload: { type, email: "head-user@example.com" },
    });
    expect(res.statusCode).toBe(200);
    return res.json().hashed_token as string;
  }

  /** The URLs that make a route do its work: its parameters filled with what exists. */
  async function armedUrls(url: string): Promise<string[]> {
    const [subscriber] = await ctx.db.query<{ id: string }>(
      "SELECT id FROM public.newsletter_subscribers LIMIT 1",
    );
    const [email] = await ctx.db.query<{ id: string }>("SELECT id FROM mail.outbox LIMIT 1");
    const links = app.newsletter.links;
    const filled = url
      .replace(":id", userId)
      .replace(":factorId", userId)
      .replace(":table", "leads")
      .replace(":fn", "resend_email");
    switch (url) {
      case "/auth/v1/verify": {
        const token = await linkToken("magiclink");
        return ["magiclink", "recovery", "email"].map(
          (type) => `${url}?token=${token}&type=${type}&redirect_to=http://localhost:3000/auth`,
        );
      }
      case "/newsletter/confirm":
        return [`${url}?token=${links.token("confirm", subscriber!.id)}`];
      case "/newsletter/unsubscribe":
        return [`${url}?token=${links.token("unsubscribe", subscriber!.id)}`];
      case "/_dev/mailbox/:id":
        return [url.replace(":id", email!.id)];
      case "/rest/v1/rpc/:fn":
        return [`${filled}?email_id=${email!.id}`];
      case "/*":
        return ["/", "/faq", "/favicon.svg", "/nowhere"];
      default:
        return [filled.replace(/\*$/, "anything")];
    }
  }

  it("changes no row on any route, whoever sends it", { timeout: 120_000 }, async () => {
    const gets = [...routes].filter(([, methods]) => methods.has("GET")).map(([url]) => url);
    for (const prefix of ["/auth/v1/verify", "/auth/v1/reauthenticate", "/newsletter/confirm"])
      expect(gets).toContain(prefix);
    for (const prefix of ["/rest/v1/", "/functions/v1/", "/_dev/mailbox", "/*"])
      expect(gets.some((url) => url.startsWith(prefix))).toBe(true);

    const credentials = [
      { apikey: keys.anonKey },
      { apikey: keys.anonKey, authorization: `Bearer ${userToken}` },
      { apikey: keys.serviceRoleKey, authorization: `Bearer ${keys.serviceRoleKey}` },
    ];
    // Every link is made before the first digest: nothing but the HEADs runs between the two.
    const armed: string[] = [];
    for (const url of gets) armed.push(...(await armedUrls(url)));
    const before = await digest();
    for (const url of armed)
      for (const headers of credentials) {
        const res = await app.inject({
          method: "HEAD",
          url,
          headers: { ...headers, "x-forwarded-for": uniqueIp() },
        });
        expect(res.statusCode, `HEAD ${url}`).toBeLessThan(500);
        expect(res.body, `HEAD ${url}`).toBe("");
      }
    expect(await digest()).toEqual(before);
  });

  it("answers HEAD on /auth/v1 as GoTrue does: 405 with the path's methods, the link unused", async () => {
    const token = await linkToken("magiclink");
    const url = `/auth/v1/verify?token=${token}&type=magiclink&redirect_to=http://localhost:3000/auth`;
    const before = await digest();
    const head = await app.inject({ method: "HEAD", url, headers: { apikey: keys.anonKey } });
    expect(head.statusCode).toBe(405);
    expect(head.headers.allow).toBe("GET, POST");
    expect(head.headers.location).toBeUndefined();
    expect(await digest()).toEqual(before);

    for (const [path, allow] of [
      ["/auth/v1/reauthenticate", "GET"],
      ["/auth/v1/user", "GET, PUT"],
      ["/auth/v1/settings", "GET"],
      ["/auth/v1/admin/users/x", "GET, PUT, DELETE"],
    ] as const) {
      const res = await app.inject({
        method: "HEAD",
        url: path,
        headers: { apikey: keys.anonKey, authorization: `Bearer ${userToken}` },
      });
      expect(res.statusCode, path).toBe(405);
      expect(res.headers.allow, path).toBe(allow);
    }
    // A path /auth/v1 does not route is not found, whatever the method.
    const unknown = await app.inject({ method: "HEAD", url: "/auth/v1/nowhere" });
    expect(unknown.statusCode).toBe(404);

    // The link still works once, for its reader.
    const get = await app.inject({
      method: "GET",
      url,
      headers: { "x-forwarded-for": uniqueIp() },
    });
    expect(get.statusCode).toBe(303);
    expect(new URL(get.headers.location as string).hash).toContain("access_token=");
  });
});
