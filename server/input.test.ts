// Hostile input on every protocol, over real HTTP: text the database cannot store, bodies nested
// thousands of levels deep, repeated query parameters, and tokens signed with our key whose claims
// are not ours in shape. Each is a 4xx in its protocol's shape, and nothing is written.
import { SignJWT } from "jose";
import { afterAll, beforeAll, expect, it } from "vitest";
import { FUNCTIONS } from "../common/functions.ts";
import { startApiServer, uniqueIp, type ApiServer } from "../tests/support/api-server.ts";
import { TEST_JWT_SECRET } from "../tests/support/app.ts";
import { PASSWORD, uniqueEmail } from "../tests/support/auth.ts";
import { solvedPayload } from "../tests/support/captcha.ts";
import { describeEachDatabase } from "../tests/support/databases.ts";
import { LEAD_FORMS as leads } from "../tests/support/leads.ts";

const NUL = "a\u0000b";
const LONE_HIGH = "a\ud83db";
const LONE_LOW = "a\ude00b";
const UNSTORABLE = [NUL, LONE_HIGH, LONE_LOW];

/** `depth` arrays inside one another around a value, as JSON text (about 2 bytes a level). */
const nested = (depth: number, inner = "1") => "[".repeat(depth) + inner + "]".repeat(depth);

describeEachDatabase("hostile input", (ctx) => {
  let server: ApiServer;
  beforeAll(async () => {
    server = await startApiServer(ctx.db, { env: { MAILER_AUTOCONFIRM: "true" } });
  });
  afterAll(() => server.close());

  const request = (
    path: string,
    init: { method?: string; body?: string; headers?: Record<string, string> } = {},
  ) =>
    fetch(`${server.url}${path}`, {
      method: init.method ?? "POST",
      body: init.body,
      headers: {
        apikey: server.anonKey,
        authorization: `Bearer ${server.anonKey}`,
        "content-type": "application/json",
        "x-forwarded-for": uniqueIp(),
        ...init.headers,
      },
    });
  const answer = async (res: Response) => ({ status: res.status, body: await res.json() });
  const count = async (table: string) =>
    (await ctx.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${table}`))[0]!.n;

  async function signedIn() {
    const email = uniqueEmail("input");
    const res = await request("/auth/v1/signup", {
      body: JSON.stringify({ email, password: PASSWORD }),
    });
    expect(res.status).toBe(200);
    const session = (await res.json()) as { access_token: string; user: { id: string } };
    const { session_id: sessionId } = JSON.parse(
      Buffer.from(session.access_token.split(".")[1]!, "base64url").toString(),
    ) as { session_id: string };
    return { token: session.access_token, userId: session.user.id, sessionId };
  }

  it("refuses text the database cannot store in every field of the lead functions, and the solved captcha still works once the field is corrected", async () => {
    for (const [name, { table, body }] of Object.entries(leads)) {
      const before = await count(`public.${table}`);
      const captcha = await solvedPayload(server.url);
      const fields = [
        ...Object.keys(body).filter((k) => !["companySize", "department"].includes(k)),
        "source.page",
        "source.utm_campaign",
      ];
      for (const field of fields) {
        for (const bad of UNSTORABLE) {
          const sent: Record<string, unknown> = { ...body, captcha };
          if (field.startsWith("source.")) sent.source = { [field.slice(7)]: bad };
          else sent[field] = field === "email" ? `${bad}@example.com` : `${bad} and more text`;
          const res = await answer(
            await request(`/functions/v1/${name}`, { body: JSON.stringify(sent) }),
          );
          expect(res, `${name} ${field} ${JSON.stringify(bad)}`).toMatchObject({
            status: 400,
            body: { code: "validation_failed" },
          });
        }
      }
      expect(await count(`public.${table}`)).toBe(before);
      const ok = await request(`/functions/v1/${name}`, {
        body: JSON.stringify({ ...body, captcha }),
      });
      expect(ok.status).toBe(200);
      expect(await count(`public.${table}`)).toBe(before + 1);
    }
  });

  it("refuses text the database cannot store in REST rows, auth bodies and auth query parameters", async () => {
    const subscribers = await count("public.newsletter_subscribers");
    for (const bad of UNSTORABLE) {
      for (const row of [
        { email: `${bad}@example.com` },
        { email: "fine@example.com", source: { page: bad } },
        { email: "fine@example.com", source: { referrer: bad } },
      ]) {
        const res = await answer(
          await request("/rest/v1/newsletter_subscribers", { body: JSON.stringify(row) }),
        );
        expect(res.status, JSON.stringify(row)).toBe(400);
        expect(Object.keys(res.body).sort()).toEqual(["code", "details", "hint", "message"]);
      }
    }
    expect(await count("public.newsletter_subscribers")).toBe(subscribers);

    const users = await count("auth.users");
    for (const bad of UNSTORABLE) {
      for (const body of [
        { email: `x${bad}@example.com`, password: PASSWORD },
        { email: uniqueEmail(), password: `${PASSWORD}${bad}` },
        { email: uniqueEmail(), password: PASSWORD, data: { name: bad } },
        { email: uniqueEmail(), password: PASSWORD, data: { [bad]: "key" } },
        { email: uniqueEmail(), password: PASSWORD, data: { deep: [{ deeper: bad }] } },
        { email: uniqueEmail(), password: PASSWORD, code_challenge: bad },
      ]) {
        const res = await answer(await request("/auth/v1/signup", { body: JSON.stringify(body) }));
        expect(res, JSON.stringify(body)).toMatchObject({
          status: 400,
          body: { code: "validation_failed", error_code: "validation_failed" },
        });
      }
    }
    // A URL carries no lone surrogate (percent-decoding makes U+FFFD of it), but it does carry NUL.
    for (const path of [
      "/auth/v1/verify?type=signup&token=a%00b",
      "/auth/v1/verify?type=sig%00nup&token=x",
      "/auth/v1/verify?type=signup&token=x&redirect_to=http%3A%2F%2Flocalhost%2F%00",
    ]) {
      const res = await answer(await request(path, { method: "GET" }));
      expect(res, path).toMatchObject({ status: 400, body: { code: "validation_failed" } });
    }
    expect(await count("auth.users")).toBe(users);
  });

  it("refuses bodies nested thousands of levels deep on every protocol (a 10 KB body), and takes moderate nesting", async () => {
    const { token } = await signedIn();
    const deep = (key: string) => `{"${key}":${nested(5000)}}`;
    const cases = [
      {
        path: "/auth/v1/signup",
        body: `{"email":"${uniqueEmail()}","password":"${PASSWORD}","data":${nested(5000, "{}")}}`,
        expected: { code: "bad_json", error_code: "bad_json" },
      },
      {
        path: "/auth/v1/user",
        method: "PUT",
        auth: token,
        body: deep("data"),
        expected: { code: "bad_json" },
      },
      {
        path: "/auth/v1/token?grant_type=password",
        body: deep("email"),
        expected: { code: "bad_json" },
      },
      { path: "/auth/v1/recover", body: deep("email"), expected: { code: "bad_json" } },
      { path: "/auth/v1/verify", body: deep("token"), expected: { code: "bad_json" } },
      {
        path: "/rest/v1/newsletter_subscribers",
        body: deep("email"),
        expected: { code: "PGRST102", message: "Empty or invalid json" },
      },
      {
        path: "/rest/v1/newsletter_subscribers",
        body: nested(5000),
        expected: { code: "PGRST102" },
      },
      {
        path: `/functions/v1/${FUNCTIONS.contact}`,
        body: deep("name"),
        expected: { code: "bad_json" },
      },
    ];
    const users = await count("auth.users");
    for (const c of cases) {
      expect(c.body.length).toBeGreaterThan(10_000);
      const res = await answer(
        await request(c.path, {
          method: c.method,
          body: c.body,
          headers: c.auth ? { authorization: `Bearer ${c.auth}` } : {},
        }),
      );
      expect(res, c.path).toMatchObject({ status: 400, body: c.expected });
    }
    expect(await count("auth.users")).toBe(users);

    // Metadata a few levels deep is ordinary and stored.
    const res = await request("/auth/v1/user", {
      method: "PUT",
      body: JSON.stringify({ data: { a: { b: { c: { d: [[["ok"]]] } } } } }),
      headers: { authorization: `Bearer ${token}` },
    });
    expect(res.status).toBe(200);
    expect((await res.json()).user_metadata.a).toEqual({ b: { c: { d: [[["ok"]]] } } });
  });

  it("refuses a repeated select, columns or on_conflict on /rest/v1 as PostgREST refuses a malformed query, storing nothing", async () => {
    const before = await count("public.newsletter_subscribers");
    for (const query of [
      "columns=email&columns=source",
      "select=id&select=email",
      "on_conflict=email&on_conflict=email",
      "columns=email&select=id&select=email",
    ]) {
      const res = await answer(
        await request(`/rest/v1/newsletter_subscribers?${query}`, {
          body: JSON.stringify({ email: uniqueEmail("rest") }),
          headers: { prefer: "return=representation" },
        }),
      );
      expect(res, query).toMatchObject({ status: 400, body: { code: "PGRST100" } });
      expect(Object.keys(res.body).sort()).toEqual(["code", "details", "hint", "message"]);
    }
    const reads = await answer(
      await request("/rest/v1/newsletter_subscribers?select=id&select=email", { method: "GET" }),
    );
    expect(reads).toMatchObject({ status: 400, body: { code: "PGRST100" } });
    expect(await count("public.newsletter_subscribers")).toBe(before);

    // A parameter given once still works, and a repeated one we do not read is ignored.
    const ok = await request("/rest/v1/newsletter_subscribers?columns=email&x=1&x=2", {
      body: JSON.stringify({ email: uniqueEmail("rest") }),
    });
    expect(ok.status).toBe(201);
  });

  it("answers names of built-in object properties like any unknown name: a table called toString is not found", async () => {
    for (const name of ["toString", "constructor", "__proto__", "hasOwnProperty", "valueOf"]) {
      const path = `/rest/v1/${encodeURIComponent(name)}`;
      for (const method of ["POST", "GET", "PATCH", "DELETE"]) {
        const res = await request(`${path}?hasOwnProperty=1&toString=2&__proto__=3`, {
          method,
          body:
            method === "GET" || method === "DELETE"
              ? undefined
              : JSON.stringify({ email: "a@b.example" }),
        });
        expect({ name, method, status: res.status }).toEqual({ name, method, status: 404 });
        expect((await res.json()).code).toBe("PGRST205");
      }
    }
  });

  it("answers a method a path does not take with 405 and the methods it takes, in each protocol's shape, and an unknown path with 404", async () => {
    const refused = async (method: string, path: string) => {
      const res = await request(path, { method });
      return { status: res.status, allow: res.headers.get("allow"), body: await res.json() };
    };
    expect(await refused("GET", "/auth/v1/token")).toEqual({
      status: 405,
      allow: "POST",
      body: {
        code: "method_not_allowed",
        error_code: "method_not_allowed",
        msg: "Method not allowed",
        message: "Method not allowed",
      },
    });
    expect(await refused("POST", "/auth/v1/user")).toMatchObject({
      status: 405,
      allow: "GET, HEAD, PUT",
      body: { error_code: "method_not_allowed" },
    });
    expect(
      await refused("GET", "/auth/v1/factors/0d6d8c3e-1b2a-4c39-9a47-6e6b0c7d5f11"),
    ).toMatchObject({
      status: 405,
      allow: "DELETE",
    });
    expect(await refused("DELETE", "/auth/v1/no-such-endpoint")).toMatchObject({
      status: 404,
      allow: null,
      body: { error_code: "not_found" },
    });
    expect(await refused("PUT", "/rest/v1/rpc/resend_email")).toEqual({
      status: 405,
      allow: "OPTIONS,POST",
      body: {
        code: "PGRST101",
        details: null,
        hint: null,
        message: "Cannot use the PUT method on RPC",
      },
    });
    expect(await refused("PUT", `/functions/v1/${FUNCTIONS.sessions}`)).toEqual({
      status: 405,
      allow: "GET, HEAD",
      body: { code: "method_not_allowed", message: "Method not allowed" },
    });
    expect(await refused("DELETE", "/readyz")).toEqual({
      status: 405,
      allow: "GET, HEAD",
      body: {
        statusCode: 405,
        error: "Method Not Allowed",
        message: "DELETE is not allowed on /readyz",
      },
    });
  });

  it("takes the first value of a repeated auth parameter: scope=local&scope=local signs out one session", async () => {
    const email = uniqueEmail("scope");
    await request("/auth/v1/signup", { body: JSON.stringify({ email, password: PASSWORD }) });
    const signIn = async () =>
      (
        (await (
          await request("/auth/v1/token?grant_type=password", {
            body: JSON.stringify({ email, password: PASSWORD }),
          })
        ).json()) as { access_token: string }
      ).access_token;
    const [first, second] = [await signIn(), await signIn()];
    const user = (token: string) =>
      request("/auth/v1/user", { method: "GET", headers: { authorization: `Bearer ${token}` } });

    for (const query of ["scope=local&scope=local", "scope=local&scope=global"]) {
      const third = await signIn();
      const res = await request(`/auth/v1/logout?${query}`, {
        headers: { authorization: `Bearer ${third}` },
      });
      expect(res.status, query).toBe(204);
      expect((await user(third)).status, query).toBe(403);
      expect((await user(first)).status, query).toBe(200);
    }
    // grant_type too: the first value decides.
    const res = await request("/auth/v1/token?grant_type=password&grant_type=refresh_token", {
      body: JSON.stringify({ email, password: PASSWORD }),
    });
    expect(res.status).toBe(200);
    expect((await user(second)).status).toBe(200);
  });

  it("answers bad_jwt for a correctly signed token whose sub (400, as GoTrue) or session_id (403) is not a UUID, on every endpoint that takes a user token", async () => {
    const { userId, sessionId } = await signedIn();
    const secret = new TextEncoder().encode(TEST_JWT_SECRET);
    const forge = (claims: Record<string, unknown>) =>
      new SignJWT({ role: "authenticated", aud: "authenticated", ...claims })
        .setProtectedHeader({ alg: "HS256", typ: "JWT" })
        .setIssuer(`${server.url}/auth/v1`)
        .setIssuedAt()
        .setExpirationTime("1h")
        .sign(secret);
    const forged = [
      { sub: "not-a-uuid", session_id: sessionId },
      { sub: userId, session_id: "not-a-uuid" },
      { sub: userId, session_id: 42 },
      { sub: userId, session_id: { id: sessionId } },
      { sub: "' OR 1=1 --", session_id: sessionId },
      { sub: `${userId}\u0000`, session_id: sessionId },
    ];
    const endpoints = [
      { path: "/auth/v1/user", method: "GET" },
      { path: "/auth/v1/user", method: "PUT", body: JSON.stringify({ data: { a: 1 } }) },
      { path: "/auth/v1/logout?scope=global", method: "POST" },
    ];
    for (const claims of forged) {
      const token = await forge(claims);
      for (const e of endpoints) {
        const res = await answer(
          await request(e.path, {
            method: e.method,
            body: e.body,
            headers: { authorization: `Bearer ${token}` },
          }),
        );
        expect(res, `${e.method} ${e.path} ${JSON.stringify(claims)}`).toMatchObject({
          status: claims.sub === userId ? 403 : 400,
          body: { code: "bad_jwt", error_code: "bad_jwt" },
        });
      }
      // REST and functions read only the role: the token is a valid key for them.
      expect(
        (
          await request("/rest/v1/newsletter_subscribers", {
            body: JSON.stringify({ email: uniqueEmail("forged") }),
            headers: { authorization: `Bearer ${token}` },
          })
        ).status,
      ).toBe(201);
    }
    // The real session is untouched.
    expect(await count("auth.sessions")).toBeGreaterThan(0);
    const [row] = await ctx.db.query("SELECT id FROM auth.sessions WHERE id = $1", [sessionId]);
    expect(row).toBeDefined();
  });
});
