// Property-based fuzzing of every route the app registers (enumerated from the app itself, so a new
// route is fuzzed without touching this file): arbitrary JSON bodies (deep nesting, unicode, NUL,
// lone surrogates, huge numbers, wrong types), repeated and odd query parameters, and odd headers
// (keys, forged-looking and correctly signed tokens with odd claims, content types). Properties: no
// answer is a 5xx, and an answer in the 4xx leaves every table and the mail outbox as they were.
// The run is bounded (FUZZ_RUNS, default 1000 per engine) and reproducible (FUZZ_SEED; the seed and
// the failing request are printed on failure).
import fc from "fast-check";
import type { FastifyInstance, HTTPMethods } from "fastify";
import { SignJWT } from "jose";
import { afterAll, beforeAll, expect, it } from "vitest";
import { buildApp } from "./app.ts";
import { migrate } from "./db/migrate.ts";
import { loadKeys } from "./security/keys.ts";
import { CHEAP_CAPTCHA, uniqueIp } from "../tests/support/api-server.ts";
import { TEST_JWT_SECRET, testConfig } from "../tests/support/app.ts";
import { PASSWORD } from "../tests/support/auth.ts";
import { solve } from "../tests/support/captcha.ts";
import { memorySite } from "../tests/support/site-fixture.ts";
import { tableDigester, type TableDigest } from "../tests/support/table-digest.ts";
import { describeEachDatabase } from "../tests/support/databases.ts";
import { LEAD_FORMS } from "../tests/support/leads.ts";

const RUNS = Number(process.env.FUZZ_RUNS ?? 1000);
const SEED = Number(process.env.FUZZ_SEED ?? Date.now() % 2 ** 31);
const METHODS: HTTPMethods[] = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"];

type Route = { url: string; methods: string[] };

/** Text a client can put in JSON: any code point, lone surrogates and NUL included. */
const text = fc.oneof(
  fc.constantFrom("\u0000", "a\u0000b", "\ud800", "x\udfff", "\ude00y\ud83d"),
  fc.constantFrom("Ada\u0000", "Grace \ud83d", "x@y.example\u0000", "/page\udc00"),
  fc.string({ unit: "binary", maxLength: 40 }),
  fc.string({ unit: "grapheme", maxLength: 40 }),
  fc.constantFrom(
    "",
    " ",
    "\u0000",
    "a\u0000b",
    "\ud800",
    "x\udfff",
    "😀",
    "null",
    "undefined",
    "__proto__",
    "constructor",
    "' OR 1=1 --",
    "%00",
    "x".repeat(6000),
    "ü".repeat(300),
    "local",
    "global",
    "signup",
    "recovery",
    "email_change",
    "password",
    "refresh_token",
    "pkce",
    "*",
    "id,email",
    "email,source",
    "eq.1",
    "http://localhost/x",
    "https://evil.example/",
    "a@b.example",
    "ADA@Example.COM",
  ),
);

/** A value for any JSON field: text, numbers at the edges, wrong types, nesting. */
const value: fc.Arbitrary<unknown> = fc.oneof(
  { depthSize: "small" },
  { weight: 4, arbitrary: text },
  {
    weight: 1,
    arbitrary: fc.constantFrom(0, -0, 1, -1, 1e308, -1e308, 2 ** 53 + 1, 0.1, true, false, null),
  },
  { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 4, stringUnit: "binary" }) },
);

const FIELDS = [
  "email",
  "password",
  "data",
  "phone",
  "channel",
  "create_user",
  "token",
  "token_hash",
  "type",
  "refresh_token",
  "auth_code",
  "code_verifier",
  "code_challenge",
  "code_challenge_method",
  "gotrue_meta_security",
  "app_metadata",
  "nonce",
  "name",
  "message",
  "company",
  "position",
  "website",
  "firstName",
  "lastName",
  "companyName",
  "companySize",
  "department",
  "source",
  "captcha",
  "nickname",
  "columns",
  "__proto__",
  "constructor",
];

/** Fields inside fields: where a lead came from, and user metadata. */
const NESTED_FIELDS = [
  "source.page",
  "source.referrer",
  "source.utm_source",
  "data.name",
  "data.x",
];

/** What each route expects, so that a hostile field gets past the first checks. */
const EXPECTED_BODIES: Record<string, Record<string, unknown>> = {
  "/auth/v1/signup": { email: "fuzz-new@example.com", password: PASSWORD, data: { name: "F" } },
  "/auth/v1/token": { email: "fuzz-user@example.com", password: PASSWORD },
  "/auth/v1/user": { data: { name: "F" } },
  "/auth/v1/recover": { email: "fuzz-user@example.com" },
  "/auth/v1/resend": { type: "signup", email: "fuzz-user@example.com" },
  "/auth/v1/verify": { type: "signup", token_hash: "0".repeat(56) },
  "/auth/v1/otp": { email: "fuzz-user@example.com", create_user: false },
  "/rest/v1/:table": { email: "reader@example.com", source: { page: "/" } },
};

/** The arbitrary's value once in `oneIn` runs, null otherwise. */
const sometimes = <T>(arbitrary: fc.Arbitrary<T>, oneIn: number) =>
  fc.oneof({ weight: oneIn - 1, arbitrary: fc.constant(null) }, { weight: 1, arbitrary });

const nested = (depth: number) => "[".repeat(depth) + "1" + "]".repeat(depth);

/** Raw bodies no JSON encoder would produce. */
const rawBody = fc.constantFrom(
  "{",
  "[",
  "}",
  "nul",
  "1e999999",
  "-",
  '"\\u0000"',
  '"\\ud800"',
  '{"email":"a\\u0000@b.example"}',
  '{"a":1,"a":2}',
  '{"__proto__":{"polluted":true}}',
  '{"constructor":{"prototype":{"polluted":true}}}',
  '{"data":' + nested(5000) + "}",
  nested(33),
  nested(31),
  "\ufeff{}",
  "email=a%40b.example&password=x",
  "\u0000",
);

const QUERY_NAMES = [
  "redirect_to",
  "type",
  "token",
  "scope",
  "grant_type",
  "provider",
  "select",
  "columns",
  "on_conflict",
  "apikey",
  "code",
  "email",
  "__proto__",
  "constructor",
  "hasOwnProperty",
];

/** Percent-encodes the UTF-8 of a string, as a client's encoder would (a lone surrogate → U+FFFD). */
const encode = (s: string) =>
  [...Buffer.from(s, "utf8")].map((b) => `%${b.toString(16).padStart(2, "0")}`).join("");

const queryPart = fc.oneof(
  { weight: 5, arbitrary: fc.tuple(fc.constantFrom(...QUERY_NAMES), text) },
  { weight: 1, arbitrary: fc.tuple(text, text) },
);
const rawQuery = fc.constantFrom("%", "%zz", "%C3%28", "a=%E2%82", "&&", "=x", "a", "a=b=c", "+");
const query = fc
  .tuple(fc.array(queryPart, { maxLength: 5 }), sometimes(rawQuery, 4))
  .map(([parts, raw]) => {
    const items = parts.map(([k, v]) => `${encode(k)}=${encode(v)}`);
    // Repeat a parameter now and then, with another value.
    if (parts[0]) items.push(`${encode(parts[0][0])}=${encode(parts[0][1] + "2")}`);
    if (raw) items.push(raw);
    return items.length ? `?${items.join("&")}` : "";
  });

/** Header values as they can travel: visible ASCII and spaces. */
const headerText = fc.string({
  unit: fc.integer({ min: 0x20, max: 0x7e }).map((c) => String.fromCharCode(c)),
  maxLength: 60,
});

describeEachDatabase("fuzzing every endpoint", (ctx) => {
  let app: FastifyInstance;
  const routes: Route[] = [];
  let anonKey: string;
  let userToken: string;
  let userId: string;
  let sessionId: string;
  const captchas: string[] = [];
  let digest: () => Promise<TableDigest>;
  const secret = new TextEncoder().encode(TEST_JWT_SECRET);

  beforeAll(async () => {
    const config = testConfig({
      MAILER_AUTOCONFIRM: "true",
      TRUST_PROXY: "loopback",
      DEV_MAILBOX: "true",
      RATE_LIMIT_EMAIL_SENT: "100000",
      RATE_LIMIT_LEAD_EMAIL_SENT: "100000",
      GOTRUE_EXTERNAL_PHONE_ENABLED: "true",
    });
    await migrate(ctx.db);
    const keys = await loadKeys({ jwtSecret: config.jwtSecret, dataDir: config.dataDir });
    anonKey = keys.anonKey;
    app = await buildApp({
      config,
      db: ctx.db,
      keys,
      site: memorySite(),
      captcha: CHEAP_CAPTCHA,
      onRoute: (route) => {
        const known = routes.find((r) => r.url === route.url);
        // HEAD mirrors GET; it is still sent now and then as one of the other methods.
        const methods = [route.method].flat().filter((m) => m !== "HEAD");
        if (known) known.methods.push(...methods);
        else if (methods.length) routes.push({ url: route.url, methods });
      },
    });

    const signup = await app.inject({
      method: "POST",
      url: "/auth/v1/signup",
      headers: { apikey: anonKey, "content-type": "application/json" },
      payload: { email: "fuzz-user@example.com", password: PASSWORD },
    });
    expect(signup.statusCode).toBe(200);
    userToken = signup.json().access_token;
    userId = signup.json().user.id;
    sessionId = JSON.parse(Buffer.from(userToken.split(".")[1]!, "base64url").toString())
      .session_id as string;
    for (let i = 0; i < RUNS / 4; i++) {
      const challenge = await app.inject({
        url: "/functions/v1/captcha-challenge",
        headers: { "x-forwarded-for": uniqueIp() },
      });
      captchas.push(await solve(challenge.json()));
    }

    digest = await tableDigester(ctx.db, app);
  });
  afterAll(() => app?.close());

  /** The arbitrary request (built once the user, its session and the captchas exist). */
  function requests() {
    /** A token signed with our key, with claims of any shape. */
    const forgedToken = fc
      .record(
        {
          sub: fc.oneof(fc.constant(userId), text, fc.integer(), fc.uuid()),
          session_id: fc.oneof(fc.constant(sessionId), text, fc.integer(), fc.uuid()),
          role: fc.oneof(
            fc.constantFrom("anon", "authenticated", "service_role", ""),
            text,
            fc.integer(),
          ),
          aal: fc.oneof(fc.constantFrom("aal1", "aal2"), text),
          amr: value,
          email: value,
          iss: fc.constantFrom("issuer", "supabase", "other"),
          exp: fc.oneof(
            fc.constant(Math.floor(Date.now() / 1000) + 3600),
            fc.constant(1),
            fc.constant(1e20),
            text,
          ),
        },
        { requiredKeys: [] },
      )
      .map(({ iss, ...claims }) => ({
        ...claims,
        ...(iss === "issuer" ? { iss: `${app.config.siteUrl}/auth/v1` } : { iss }),
      }));

    const credential = fc.oneof(
      fc.constant(() => anonKey),
      fc.constant(() => userToken),
      forgedToken.map((claims) => () => claims),
      headerText.map((s) => () => s),
      fc.constant(() => "eyJhbGciOiJub25lIn0.eyJyb2xlIjoic2VydmljZV9yb2xlIn0."),
    );

    // Mostly a request its route expects with a field or two made hostile (so the hostile value
    // gets past the first checks), sometimes a body of any shape.
    const body = fc.oneof(
      {
        weight: 6,
        arbitrary: fc.record({
          kind: fc.constant("mutate" as const),
          // A field the route expects (by its index), or any field.
          set: fc.array(
            fc.tuple(fc.oneof(fc.nat(), fc.constantFrom(...FIELDS, ...NESTED_FIELDS)), value),
            {
              minLength: 1,
              maxLength: 2,
            },
          ),
          captcha: fc.boolean(),
        }),
      },
      {
        weight: 2,
        arbitrary: fc.oneof(
          fc.dictionary(fc.constantFrom(...FIELDS), value, { maxKeys: 6 }).map(json),
          fc.array(fc.dictionary(fc.constantFrom(...FIELDS), value), { maxLength: 3 }).map(json),
          fc.jsonValue({ stringUnit: "binary" }).map(json),
          rawBody,
          fc.constant(undefined),
        ),
      },
    );

    const request = fc.record({
      route: fc.integer({ min: 0, max: 10_000 }),
      /** 0: every header as generated; 1: the anon key's, 2: the user's, then the generated ones. */
      wellFormed: fc.integer({ min: 0, max: 2 }),
      otherMethod: sometimes(fc.constantFrom(...METHODS), 8),
      filler: fc.oneof(
        { weight: 3, arbitrary: fc.constantFrom("newsletter_subscribers", "demo_requests") },
        { weight: 1, arbitrary: fc.constantFrom("faq", "x.js", "blog/none", "") },
        { weight: 2, arbitrary: text.map(encode) },
      ),
      query,
      body,
      apikey: sometimes(credential, 4),
      authorization: sometimes(
        fc.tuple(fc.constantFrom("Bearer ", "bearer ", "Basic ", "", "Bearer  "), credential),
        4,
      ),
      contentType: sometimes(
        fc.oneof(
          fc.constantFrom(
            "application/json",
            "application/json; charset=utf-8",
            "application/json; charset=latin1",
            "APPLICATION/JSON",
            "text/plain",
            "application/x-www-form-urlencoded",
            "multipart/form-data; boundary=x",
            "application/vnd.pgrst.object+json",
            "application/octet-stream",
            "*/*",
          ),
          headerText,
        ),
        5,
      ),
      extra: fc.dictionary(
        fc.constantFrom(
          "prefer",
          "accept",
          "content-profile",
          "accept-profile",
          "x-forwarded-for",
          "accept-encoding",
          "if-none-match",
          "user-agent",
          "x-supabase-api-version",
          "origin",
        ),
        fc.oneof(
          headerText,
          fc.constantFrom(
            "return=representation",
            "return=minimal, count=exact",
            "resolution=merge-duplicates",
            "application/vnd.pgrst.object+json",
            "private",
            "br;q=0, gzip;q=x",
            "10.0.0.1, junk, ::1",
          ),
        ),
        { maxKeys: 4 },
      ),
    });
    return request;
  }

  /** The body a route expects, with the given fields (dotted: nested) set to the given values. */
  function mutated(url: string, set: [string | number, unknown][], withCaptcha: boolean) {
    const fn = url.replace("/functions/v1/", "") as keyof typeof LEAD_FORMS;
    const base: Record<string, unknown> = structuredClone(
      LEAD_FORMS[fn]?.body ?? EXPECTED_BODIES[url] ?? {},
    );
    const expected = Object.keys(base);
    for (const [which, v] of set) {
      const field = typeof which === "number" ? (expected[which % expected.length] ?? "") : which;
      const [outer, inner] = field.split(".") as [string, string | undefined];
      if (inner === undefined) base[outer] = v;
      else base[outer] = { ...(base[outer] as object), [inner]: v };
    }
    if (LEAD_FORMS[fn] && withCaptcha) base.captcha = captchas.pop();
    return base;
  }

  function json(v: unknown): string {
    return JSON.stringify(v) ?? "null";
  }

  async function headerValue(make: () => unknown): Promise<string> {
    const made = make();
    if (typeof made === "string") return made;
    return new SignJWT(made as Record<string, unknown>)
      .setProtectedHeader({ alg: "HS256", typ: "JWT" })
      .sign(secret);
  }

  it(
    `answers ${RUNS} arbitrary requests per engine without a 5xx, writing nothing on a 4xx`,
    { timeout: 240_000 },
    async () => {
      expect(routes.length).toBeGreaterThan(15);
      for (const prefix of ["/auth/v1/", "/rest/v1/", "/functions/v1/", "/_dev/mailbox", "/*"])
        expect(
          routes.some((r) => r.url.startsWith(prefix)),
          prefix,
        ).toBe(true);

      await fc.assert(
        fc.asyncProperty(requests(), async (r) => {
          const route = routes[r.route % routes.length]!;
          const method = (r.otherMethod ??
            route.methods[
              Math.floor(r.route / routes.length) % route.methods.length
            ]) as HTTPMethods;
          const url = route.url.replace(/:\w+|\*/g, r.filler) + r.query;
          const headers: Record<string, string> = r.wellFormed
            ? {
                apikey: anonKey,
                authorization: `Bearer ${r.wellFormed === 1 ? anonKey : userToken}`,
                "content-type": "application/json",
              }
            : {};
          Object.assign(headers, { "x-forwarded-for": uniqueIp() }, r.extra);
          if (r.apikey) headers.apikey = await headerValue(r.apikey);
          if (r.authorization)
            headers.authorization = r.authorization[0] + (await headerValue(r.authorization[1]));
          if (r.contentType) headers["content-type"] = r.contentType;
          const payload =
            method === "GET" || method === "HEAD"
              ? undefined
              : typeof r.body === "object"
                ? json(mutated(route.url, r.body.set, r.body.captcha))
                : r.body;

          const before = await digest();
          const res = await app.inject({ method, url, headers, payload });
          const sent = `${method} ${url} ${JSON.stringify(headers)} ${payload?.slice(0, 300)}`;
          expect(res.statusCode, `${sent} → ${res.body.slice(0, 300)}`).toBeLessThan(500);
          if (res.statusCode >= 400) {
            expect(await digest(), `${sent} → ${res.statusCode} ${res.body.slice(0, 300)}`).toEqual(
              before,
            );
          }
        }),
        { numRuns: RUNS, seed: SEED, endOnFailure: true },
      );
    },
  );
});
