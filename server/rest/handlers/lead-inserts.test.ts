// /rest/v1 through the real supabase-js client: PostgREST semantics for the two public lead tables.
import type { SupabaseClient } from "@supabase/supabase-js";
import { SignJWT } from "jose";
import { expect, it } from "vitest";
import {
  startApiServer,
  uniqueIp,
  uniqueIpv6Network,
  type ApiServer,
} from "../../../tests/support/api-server.ts";
import { TEST_JWT_SECRET } from "../../../tests/support/app.ts";
import { describeEachDatabase, openAgain } from "../../../tests/support/databases.ts";
import { redisAvailable, TEST_REDIS_URL } from "../../../tests/support/redis.ts";
import { addressOf } from "../../../tests/support/smtp.ts";
import { useTestServer } from "../../../tests/support/test-server.ts";

const haveRedis = await redisAvailable();

describeEachDatabase("REST inserts", (ctx) => {
  const { server, smtp } = useTestServer(() => ctx.db);
  let supabase: SupabaseClient;
  const fresh = () => (supabase = server.client({ ip: uniqueIp() }));
  const count = async (table: string, email: string) =>
    (
      await ctx.db.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM public.${table} WHERE lower(email) = lower($1)`,
        [email],
      )
    )[0]!.n;
  const outboxTo = async (address: string) =>
    (
      await ctx.db.query<{ n: number }>(
        "SELECT count(*)::int AS n FROM mail.outbox WHERE to_address = $1",
        [address],
      )
    )[0]!.n;
  const serviceKey = () =>
    new SignJWT({ role: "service_role" })
      .setProtectedHeader({ alg: "HS256" })
      .setIssuedAt()
      .setExpirationTime("1h")
      .sign(new TextEncoder().encode(TEST_JWT_SECRET));
  const raw = (path: string, init: RequestInit & { headers?: Record<string, string> } = {}) =>
    fetch(`${server.url}/rest/v1${path}`, {
      method: "POST",
      ...init,
      headers: {
        apikey: server.anonKey,
        "content-type": "application/json",
        "x-forwarded-for": uniqueIp(),
        ...init.headers,
      },
    });

  /** One row posted to a server's table from a new client address: the status and error code. */
  const postRow = async (target: { url: string; anonKey: string }, table: string, row: object) => {
    const res = await fetch(`${target.url}/rest/v1/${table}`, {
      method: "POST",
      headers: {
        apikey: target.anonKey,
        "content-type": "application/json",
        "x-forwarded-for": uniqueIp(),
      },
      body: JSON.stringify(row),
    });
    const text = await res.text();
    return { status: res.status, code: text && (JSON.parse(text) as { code: string }).code };
  };

  it("inserts a newsletter subscriber: 201 with an empty body, stored lower-cased with its source", async () => {
    fresh();
    const source = {
      page: "/blog/ai-sales",
      referrer: "https://news.example/",
      utm_source: "newsletter",
      utm_campaign: "spring",
    };
    const result = await supabase
      .from("newsletter_subscribers")
      .insert({ email: " Reader@Example.COM ", source });
    expect(result).toMatchObject({ error: null, data: null, status: 201, statusText: "Created" });
    const [row] = await ctx.db.query<{ email: string; source: object; created_at: Date }>(
      "SELECT email, source, created_at FROM public.newsletter_subscribers WHERE email = 'reader@example.com'",
    );
    expect(row).toMatchObject({ email: "reader@example.com", source });
    expect(Date.now() - row!.created_at.getTime()).toBeLessThan(60_000);
  });

  it("refuses a duplicate email, whatever its case, with 409 and code 23505", async () => {
    fresh();
    await supabase.from("newsletter_subscribers").insert({ email: "dup@example.com" });
    const { error, status } = await supabase
      .from("newsletter_subscribers")
      .insert({ email: "DUP@example.com" });
    expect(status).toBe(409);
    expect(error).toMatchObject({
      code: "23505",
      message: expect.stringContaining("newsletter_subscribers_email_key"),
    });
    expect(await count("newsletter_subscribers", "dup@example.com")).toBe(1);
  });

  it("refuses to return inserted rows to a role that cannot read them: 401 42501, nothing stored", async () => {
    fresh();
    const denied = {
      code: "42501",
      details: null,
      hint: null,
      message: "permission denied for table newsletter_subscribers",
    };
    // supabase-js's .select() after .insert() asks for return=representation.
    const many = await supabase
      .from("newsletter_subscribers")
      .insert({ email: "rep1@example.com" })
      .select();
    expect(many).toMatchObject({ status: 401, data: null, error: denied });
    const one = await supabase
      .from("newsletter_subscribers")
      .insert({ email: "rep2@example.com" })
      .select("id")
      .single();
    expect(one).toMatchObject({ status: 401, data: null, error: denied });
    // The location of the new row (headers-only) is a read too; so is an upsert's update.
    const headersOnly = await raw("/newsletter_subscribers", {
      headers: { prefer: "return=headers-only" },
      body: JSON.stringify({ email: "rep3@example.com" }),
    });
    expect(headersOnly.status).toBe(401);
    expect(await headersOnly.json()).toEqual(denied);
    expect(headersOnly.headers.get("location")).toBeNull();
    const upsert = await raw("/newsletter_subscribers?on_conflict=email", {
      headers: { prefer: "resolution=merge-duplicates,return=representation" },
      body: JSON.stringify({ email: "rep4@example.com" }),
    });
    expect(upsert.status).toBe(401);
    // A demo request is refused before its email is queued.
    const demo = await supabase
      .from("demo_requests")
      .insert({ email: "rep5@company.example" })
      .select();
    expect(demo).toMatchObject({ status: 401, error: { code: "42501" } });
    // The service role cannot read these tables either: 403.
    const service = await raw("/newsletter_subscribers", {
      headers: { prefer: "return=representation", authorization: `Bearer ${await serviceKey()}` },
      body: JSON.stringify({ email: "rep6@example.com" }),
    });
    expect(service.status).toBe(403);
    expect(await service.json()).toEqual(denied);
    for (const n of [1, 2, 3, 4, 6])
      expect(await count("newsletter_subscribers", `rep${n}@example.com`)).toBe(0);
    expect(await count("demo_requests", "rep5@company.example")).toBe(0);
    expect(await outboxTo("rep5@company.example")).toBe(0);
  });

  it("answers minimal inserts as before: ?select= is ignored, count=exact counts", async () => {
    fresh();
    const selected = await raw("/newsletter_subscribers?select=id,email", {
      headers: { prefer: "return=minimal" },
      body: JSON.stringify({ email: "min1@example.com" }),
    });
    expect(selected.status).toBe(201);
    expect(await selected.text()).toBe("");
    const counted = await supabase
      .from("newsletter_subscribers")
      .insert({ email: "min2@example.com" }, { count: "exact" });
    expect(counted).toMatchObject({ status: 201, count: 1, error: null, data: null });
    expect(await count("newsletter_subscribers", "min1@example.com")).toBe(1);
    expect(await count("newsletter_subscribers", "min2@example.com")).toBe(1);
  });

  it("answers invalid values with 400 in PostgREST's shape and stores nothing", async () => {
    fresh();
    for (const email of ["not-an-email", "", 42, { $ne: null }, "a@b@c.com"]) {
      const { error, status } = await supabase
        .from("newsletter_subscribers")
        .insert({ email } as never);
      expect(status, JSON.stringify(email)).toBe(400);
      expect(error, JSON.stringify(email)).toMatchObject({
        code: "23514",
        message: expect.stringContaining("newsletter_subscribers_email_check"),
      });
      expect(error).toHaveProperty("details");
      expect(error).toHaveProperty("hint");
    }
    const nullEmail = await supabase
      .from("newsletter_subscribers")
      .insert({ email: null } as never);
    expect(nullEmail.error).toMatchObject({ code: "23502" });
    const badSource = await supabase
      .from("newsletter_subscribers")
      .insert({ email: "src@example.com", source: { page: 1 } } as never);
    expect(badSource.status).toBe(400);
    expect(await count("newsletter_subscribers", "src@example.com")).toBe(0);
  });

  it("takes one row per request: a 50-row array is refused with 400, nothing stored or queued", async () => {
    fresh();
    const cannon = await raw("/demo_requests", {
      body: JSON.stringify(
        Array.from({ length: 50 }, (_, i) => ({ email: `target${i}@cannon.example` })),
      ),
    });
    expect(cannon.status).toBe(400);
    expect(await cannon.json()).toEqual({
      code: "PGRST102",
      details: "The body holds 50 rows",
      hint: "Send one object per request",
      message: "One row per request",
    });
    const pair = await supabase
      .from("newsletter_subscribers")
      .insert([{ email: "pair1@example.com" }, { email: "pair2@example.com" }]);
    expect(pair).toMatchObject({ status: 400, error: { code: "PGRST102" } });
    const service = await raw("/demo_requests", {
      headers: { authorization: `Bearer ${await serviceKey()}` },
      body: JSON.stringify([{ email: "s1@cannon.example" }, { email: "s2@cannon.example" }]),
    });
    expect(service.status).toBe(400);
    expect(
      (await ctx.db.query("SELECT 1 FROM public.demo_requests WHERE email LIKE '%@cannon.example'"))
        .length,
    ).toBe(0);
    expect(
      (await ctx.db.query("SELECT 1 FROM mail.outbox WHERE to_address LIKE '%@cannon.example'"))
        .length,
    ).toBe(0);
    expect(await count("newsletter_subscribers", "pair1@example.com")).toBe(0);
    // A one-element array is one row.
    const single = await supabase
      .from("newsletter_subscribers")
      .insert([{ email: "solo@example.com" }]);
    expect(single.status).toBe(201);
  });

  it("takes demo requests from business addresses only and emails the demo", async () => {
    fresh();
    const free = await supabase.from("demo_requests").insert({ email: "someone@GMAIL.com" });
    expect(free.status).toBe(400);
    expect(free.error).toMatchObject({
      code: "23514",
      details: "Please use your business email address",
    });
    expect(await count("demo_requests", "someone@gmail.com")).toBe(0);

    const ok = await supabase
      .from("demo_requests")
      .insert({ email: "Buyer@Northwind-Analytics.example" });
    expect(ok).toMatchObject({ status: 201, error: null });
    const mail = await smtp.waitFor((m) => addressOf(m) === "buyer@northwind-analytics.example");
    expect(mail.subject).toBe("Your Revwise demo is ready");
    expect(mail.text).toContain(`${server.url}/product/tour`);
    expect(mail.html).toContain("Start the tour");
    expect(mail.text).toContain("step-by-step product tour");
    expect(mail.text).toContain("about three minutes");

    // Asking again within the hour sends nothing new (whoever asks, whatever the case), and the
    // answer says so: 200, the request merged into the one before.
    const again = await server
      .client({ ip: uniqueIp() })
      .from("demo_requests")
      .insert({ email: "BUYER@northwind-analytics.example" });
    expect(again).toMatchObject({ status: 200, error: null });
    expect(await outboxTo("buyer@northwind-analytics.example")).toBe(1);
    expect(await count("demo_requests", "buyer@northwind-analytics.example")).toBe(1);
  });

  it("emails a newsletter subscriber one confirmation, however often the address signs up", async () => {
    fresh();
    expect(
      (await supabase.from("newsletter_subscribers").insert({ email: "quiet@example.com" })).status,
    ).toBe(201);
    expect(await count("newsletter_subscribers", "quiet@example.com")).toBe(1);
    const mail = await smtp.waitFor((m) => addressOf(m) === "quiet@example.com");
    expect(mail.subject).toBe("Confirm your Revwise newsletter subscription");
    await fresh().from("newsletter_subscribers").insert({ email: "quiet@example.com" });
    expect(await outboxTo("quiet@example.com")).toBe(1);
  });

  /**
   * Pairs of the same Watch Demo request and the same newsletter sign-up sent at the same moment
   * (a network retry while the first is still running), to the instances at `urls`: answered as
   * when sent one after the other. The Watch Demo request 201, then 200 (a repeat, nothing sent);
   * the sign-up the spec's duplicate answer (409 23505, decision 0030) for one, and for the other
   * 201, or 200 when its insert made the row while the other's claim sends the confirmation (the
   * footer then says to check the inbox); one row and one email each.
   */
  const overlappingRepeats = async (urls: readonly [string, string], tag: string) => {
    for (let pair = 0; pair < 3; pair++)
      for (const table of ["demo_requests", "newsletter_subscribers"] as const) {
        const email = `overlap-${tag}${pair}@${table.replace("_", "-")}.example`;
        const answers = await Promise.all(
          urls.map((url) => postRow({ url, anonKey: server.anonKey }, table, { email })),
        );
        const [first, second] = answers.sort((a, b) => a.status - b.status);
        if (table === "demo_requests") {
          expect([first, second]).toEqual([
            { status: 200, code: "" },
            { status: 201, code: "" },
          ]);
        } else {
          expect(first).toEqual({ status: expect.toBeOneOf([200, 201]) as number, code: "" });
          expect(second).toEqual({ status: 409, code: "23505" });
        }
        expect(await count(table, email)).toBe(1);
        expect(await outboxTo(email)).toBe(1);
      }
  };

  it("answers a Watch Demo request and a sign-up sent again while the first is running as one after the other", async () => {
    await overlappingRepeats([server.url, server.url], "one");
  });

  it.skipIf(!haveRedis)(
    "answers the same overlapping repeats so across two instances on one database and one Redis",
    async () => {
      // Email budgets belong to a site (SITE_URL): a fresh one per run, shared by both instances.
      const env = {
        REDIS_URL: TEST_REDIS_URL,
        SITE_URL: `https://overlap-${Date.now()}-${process.pid}.example`,
        SMTP_URL: smtp.url,
      };
      const again = [await openAgain(ctx), await openAgain(ctx)];
      const [a, b] = [
        await startApiServer(again[0]!.db, { env }),
        await startApiServer(again[1]!.db, { env }),
      ];
      try {
        await overlappingRepeats([a!.url, b!.url], "two");
      } finally {
        await a!.close();
        await b!.close();
        await Promise.all(again.map((opened) => opened.close()));
      }
    },
  );

  /**
   * A Watch Demo request and a newsletter sign-up whose insert the database refuses (a trigger
   * raising a serialization failure for that one address, as a refused transaction would), then
   * sent again within the hour once the database takes it: the retry is stored and emails its
   * address exactly once, through the real SMTP server. The refused request spent no email, so
   * its retry is not taken for a repeat of an email that was never sent.
   */
  const retriedAfterRefusedInsert = async (api: ApiServer, tag: string) => {
    for (const table of ["demo_requests", "newsletter_subscribers"] as const) {
      const email = `refused-${tag}@${table.replace("_", "-")}.example`;
      const name = `refuse_${tag}_${table}`;
      const insert = () => api.client({ ip: uniqueIp() }).from(table).insert({ email });
      await ctx.db.exec(
        `CREATE FUNCTION public.${name}() RETURNS trigger LANGUAGE plpgsql AS $$
         BEGIN
           IF lower(NEW.email) = '${email}' THEN
             RAISE EXCEPTION 'refused for the test' USING ERRCODE = 'serialization_failure';
           END IF;
           RETURN NEW;
         END $$`,
      );
      await ctx.db.exec(
        `CREATE TRIGGER ${name} BEFORE INSERT ON public.${table} FOR EACH ROW EXECUTE FUNCTION public.${name}()`,
      );
      try {
        expect((await insert()).status).toBe(500);
      } finally {
        await ctx.db.exec(`DROP TRIGGER ${name} ON public.${table}`);
        await ctx.db.exec(`DROP FUNCTION public.${name}()`);
      }
      expect(await count(table, email)).toBe(0);
      expect(await outboxTo(email)).toBe(0);

      expect((await insert()).status).toBe(201);
      expect(await count(table, email)).toBe(1);
      expect(await outboxTo(email)).toBe(1);
      await smtp.waitFor((m) => addressOf(m) === email);
      expect(smtp.messages.filter((m) => addressOf(m) === email)).toHaveLength(1);
    }
  };

  it("emails a Watch Demo request and a sign-up retried after the database refused their insert", async () => {
    await retriedAfterRefusedInsert(server, "memory");
  });

  it.skipIf(!haveRedis)("emails them so when the budgets are counted in Redis", async () => {
    const redisServer = await startApiServer(ctx.db, {
      env: {
        REDIS_URL: TEST_REDIS_URL,
        SITE_URL: `https://refused-${Date.now()}-${process.pid}.example`,
        SMTP_URL: smtp.url,
      },
    });
    try {
      await retriedAfterRefusedInsert(redisServer, "redis");
    } finally {
      await redisServer.close();
    }
  });

  const budgetRefusal = {
    status: 429,
    error: {
      code: "over_email_send_rate_limit",
      message: "Email rate limit exceeded",
      details: null,
      hint: "Wait an hour before trying again.",
    },
  };

  it("spends a per-IP email budget shared with the auth service: beyond it 429, nothing stored", async () => {
    const budgeted = await startApiServer(ctx.db, {
      env: {
        SMTP_URL: smtp.url,
        RATE_LIMIT_EMAIL_IP: "3",
        RATE_LIMIT_EMAIL_SENT: "1000",
        RATE_LIMIT_LEAD_EMAIL_SENT: "1000",
      },
    });
    try {
      const ip = uniqueIp();
      const visitor = budgeted.client({ ip });
      for (const n of [1, 2, 3])
        expect(
          (await visitor.from("demo_requests").insert({ email: `ip${n}@budget.example` })).status,
        ).toBe(201);
      // A repeat sends nothing, so it spends nothing; but once spent, the answer is the refusal
      // whatever the address (it tells nothing about who asked before).
      const refused = await visitor.from("demo_requests").insert({ email: "ip4@budget.example" });
      expect(refused).toMatchObject(budgetRefusal);
      expect(await count("demo_requests", "ip4@budget.example")).toBe(0);
      expect(await outboxTo("ip4@budget.example")).toBe(0);
      expect(
        await visitor.auth.signUp({ email: "ip5@budget.example", password: "Correct-Horse-9" }),
      ).toMatchObject({ error: { status: 429, code: "over_email_send_rate_limit" } });
      expect(await outboxTo("ip5@budget.example")).toBe(0);
      // A newsletter sign-up is stored all the same, without its confirmation (decision 0030);
      // another address has its own budget.
      expect(
        (await visitor.from("newsletter_subscribers").insert({ email: "ip6@budget.example" }))
          .status,
      ).toBe(201);
      expect(await count("newsletter_subscribers", "ip6@budget.example")).toBe(1);
      expect(await outboxTo("ip6@budget.example")).toBe(0);
      expect(
        (
          await budgeted
            .client({ ip: uniqueIp() })
            .from("demo_requests")
            .insert({ email: "ip7@budget.example" })
        ).status,
      ).toBe(201);
    } finally {
      await budgeted.close();
    }
  });

  it("spends site-wide email budgets, one for the forms' replies and one for account emails: beyond each 429 with Retry-After", async () => {
    const budgeted = await startApiServer(ctx.db, {
      env: { SMTP_URL: smtp.url, RATE_LIMIT_EMAIL_SENT: "2", RATE_LIMIT_LEAD_EMAIL_SENT: "2" },
    });
    try {
      const visitor = () => budgeted.client({ ip: uniqueIp() });
      const ask = (email: string) => visitor().from("demo_requests").insert({ email });
      const subscribe = (email: string) =>
        visitor().from("newsletter_subscribers").insert({ email });
      expect((await ask("site1@budget.example")).status).toBe(201);
      expect((await subscribe("site2@budget.example")).status).toBe(201);
      expect(await outboxTo("site2@budget.example")).toBe(1);
      expect(await ask("site3@budget.example")).toMatchObject(budgetRefusal);
      const rawRefusal = await fetch(`${budgeted.url}/rest/v1/demo_requests`, {
        method: "POST",
        headers: {
          apikey: budgeted.anonKey,
          "content-type": "application/json",
          "x-forwarded-for": uniqueIp(),
        },
        body: JSON.stringify({ email: "site4@budget.example" }),
      });
      expect(rawRefusal.status).toBe(429);
      expect(Number(rawRefusal.headers.get("retry-after"))).toBeGreaterThan(0);
      expect(Number(rawRefusal.headers.get("retry-after"))).toBeLessThanOrEqual(3600);
      // Stored, without its confirmation (decision 0030).
      expect((await subscribe("site5@budget.example")).status).toBe(201);
      for (const n of [3, 4, 5]) expect(await outboxTo(`site${n}@budget.example`)).toBe(0);

      // Sign-ups were not starved by the forms: account emails have a budget of their own.
      const signUp = (email: string) =>
        visitor().auth.signUp({ email, password: "Correct-Horse-9" });
      expect((await signUp("site6@budget.example")).error).toBeNull();
      expect((await signUp("site7@budget.example")).error).toBeNull();
      expect((await signUp("site8@budget.example")).error).toMatchObject({
        status: 429,
        code: "over_email_send_rate_limit",
      });
      for (const [n, sent] of [
        [6, 1],
        [7, 1],
        [8, 0],
      ])
        expect(await outboxTo(`site${n}@budget.example`)).toBe(sent);
    } finally {
      await budgeted.close();
    }
  });

  it("answers sign-ups sent at the same moment past the forms' email budget each as if sent alone", async () => {
    const budgeted = await startApiServer(ctx.db, {
      env: { SMTP_URL: smtp.url, RATE_LIMIT_LEAD_EMAIL_SENT: "1" },
    });
    try {
      const signUp = (email: string) => postRow(budgeted, "newsletter_subscribers", { email });
      // The budget's one email goes to the first; the sign-ups after it are stored without one.
      expect(await signUp("burst-known@budget.example")).toEqual({ status: 201, code: "" });
      const emails = [
        ...Array.from({ length: 12 }, (_, i) => `burst${i}@budget.example`),
        "BURST3@budget.example",
        "burst-known@budget.example",
      ];
      const answers = await Promise.all(emails.map(signUp));
      const created = { status: 201, code: "" };
      const duplicate = { status: 409, code: "23505" };
      for (const [i, answer] of answers.slice(0, 12).entries())
        if (i !== 3) expect(answer).toEqual(created);
      expect([answers[3], answers[12]]).toEqual(expect.arrayContaining([created, duplicate]));
      expect(answers[13]).toEqual(duplicate);
      for (const email of emails) {
        expect(await count("newsletter_subscribers", email)).toBe(1);
        expect(await outboxTo(email.toLowerCase())).toBe(
          email === "burst-known@budget.example" ? 1 : 0,
        );
      }
    } finally {
      await budgeted.close();
    }
  });

  it("lets the anon role insert only: reading, updating and deleting are refused", async () => {
    fresh();
    const read = await supabase.from("newsletter_subscribers").select("*");
    expect(read.status).toBe(401);
    expect(read.error).toMatchObject({
      code: "42501",
      message: "permission denied for table newsletter_subscribers",
    });
    expect(
      (
        await supabase
          .from("newsletter_subscribers")
          .update({ email: "x@example.com" })
          .eq("email", "reader@example.com")
      ).status,
    ).toBe(401);
    expect(
      (
        await supabase
          .from("demo_requests")
          .delete()
          .eq("email", "buyer@northwind-analytics.example")
      ).status,
    ).toBe(401);
    const upsert = await supabase
      .from("newsletter_subscribers")
      .upsert({ email: "reader@example.com" });
    expect(upsert.status).toBe(401);
    expect(await count("newsletter_subscribers", "reader@example.com")).toBe(1);
    expect(await count("demo_requests", "buyer@northwind-analytics.example")).toBe(1);
  });

  it("answers unknown tables, columns and schemas like PostgREST", async () => {
    fresh();
    expect(await supabase.from("users").insert({ email: "a@b.co" })).toMatchObject({
      status: 404,
      error: { code: "PGRST205" },
    });
    expect(
      await supabase
        .from("newsletter_subscribers")
        .insert({ email: "a@b.co", admin: true } as never),
    ).toMatchObject({
      status: 400,
      error: {
        code: "PGRST204",
        message:
          "Could not find the 'admin' column of 'newsletter_subscribers' in the schema cache",
      },
    });
    expect(await supabase.schema("auth").from("users").insert({ email: "a@b.co" })).toMatchObject({
      status: 406,
      error: { code: "PGRST106" },
    });
    expect(
      await supabase
        .from("newsletter_subscribers")
        .insert({ email: "x@example.com" })
        .select("password"),
    ).toMatchObject({ status: 400, error: { code: "42703" } });
  });

  it("requires an API key and a valid JWT", async () => {
    const none = await raw("/newsletter_subscribers", {
      headers: { apikey: "" },
      body: JSON.stringify({ email: "k1@example.com" }),
    });
    expect(none.status).toBe(401);
    expect(await none.json()).toEqual({
      message: "No API key found in request",
      hint: "No `apikey` request header or url param was found.",
    });

    const otherSecret = await new SignJWT({ role: "anon" })
      .setProtectedHeader({ alg: "HS256" })
      .setIssuedAt()
      .setExpirationTime("1h")
      .sign(new TextEncoder().encode("another-secret-another-secret-another"));
    const forged = await raw("/newsletter_subscribers", {
      headers: { apikey: otherSecret },
      body: JSON.stringify({ email: "k2@example.com" }),
    });
    expect(forged.status).toBe(401);
    expect((await forged.json()).message).toBe("Invalid API key");

    const [h, p] = server.anonKey.split(".");
    const algNone = `${Buffer.from(JSON.stringify({ alg: "none", typ: "JWT" })).toString("base64url")}.${p}.`;
    expect(
      (
        await raw("/newsletter_subscribers", {
          headers: { apikey: algNone },
          body: JSON.stringify({ email: "k3@example.com" }),
        })
      ).status,
    ).toBe(401);
    expect(
      (
        await raw("/newsletter_subscribers", {
          headers: { apikey: `${h}.${p}.AAAA` },
          body: JSON.stringify({ email: "k4@example.com" }),
        })
      ).status,
    ).toBe(401);

    const expired = await new SignJWT({ role: "anon" })
      .setProtectedHeader({ alg: "HS256" })
      .setIssuedAt(1_600_000_000)
      .setExpirationTime(1_600_000_100)
      .sign(new TextEncoder().encode(TEST_JWT_SECRET));
    const old = await raw("/newsletter_subscribers", {
      headers: { authorization: `Bearer ${expired}` },
      body: JSON.stringify({ email: "k5@example.com" }),
    });
    expect(old.status).toBe(401);
    expect(await old.json()).toMatchObject({ code: "PGRST303", message: "JWT expired" });
    expect(old.headers.get("www-authenticate")).toMatch(/^Bearer/);
    for (const email of ["k1", "k2", "k3", "k4", "k5"])
      expect(await count("newsletter_subscribers", `${email}@example.com`)).toBe(0);
  });

  it("answers hostile bodies with 4xx and stores nothing", async () => {
    const bad = async (body: string, contentType = "application/json") => {
      const res = await raw("/newsletter_subscribers", {
        body,
        headers: { "content-type": contentType },
      });
      return { status: res.status, body: await res.json() };
    };
    expect(await bad("{not json")).toMatchObject({ status: 400, body: { code: "PGRST102" } });
    expect(await bad("")).toMatchObject({ status: 400, body: { code: "PGRST102" } });
    expect(await bad("[]")).toMatchObject({ status: 400, body: { code: "PGRST102" } });
    expect(await bad('"just a string"')).toMatchObject({ status: 400, body: { code: "PGRST102" } });
    expect(await bad('[{"email":"a@x.io"},{"email":"b@x.io","source":{}}]')).toMatchObject({
      status: 400,
      body: { code: "PGRST102" },
    });
    expect(await bad(JSON.stringify({ email: `${"a".repeat(70_000)}@x.io` }))).toMatchObject({
      status: 413,
    });
    expect(await bad("email=a@x.io", "application/x-www-form-urlencoded")).toMatchObject({
      status: 415,
    });
    expect(
      await bad(JSON.stringify(Array.from({ length: 51 }, (_, i) => ({ email: `bulk${i}@x.io` })))),
    ).toMatchObject({ status: 400 });
    expect(
      (await ctx.db.query("SELECT 1 FROM public.newsletter_subscribers WHERE email LIKE '%@x.io'"))
        .length,
    ).toBe(0);
  });

  it("limits each client address to 10 writes a minute per table, with 429 and Retry-After", async () => {
    const ip = uniqueIp();
    const client = server.client({ ip });
    for (let i = 0; i < 10; i++) {
      expect(
        (await client.from("newsletter_subscribers").insert({ email: `limit${i}@example.com` }))
          .status,
      ).toBe(201);
    }
    const refused = await client
      .from("newsletter_subscribers")
      .insert({ email: "limit10@example.com" });
    expect(refused.status).toBe(429);
    expect(refused.error).toMatchObject({ code: "over_request_rate_limit" });
    expect(await count("newsletter_subscribers", "limit10@example.com")).toBe(0);
    const rawRefusal = await raw("/newsletter_subscribers", {
      headers: { "x-forwarded-for": ip },
      body: JSON.stringify({ email: "limit11@example.com" }),
    });
    expect(rawRefusal.status).toBe(429);
    expect(Number(rawRefusal.headers.get("retry-after"))).toBeGreaterThan(0);
    // Another address, and another table, are counted apart (this address's ten confirmation
    // emails spent its email budget, so the demo's email is what refuses it here).
    expect(
      (
        await server
          .client({ ip: uniqueIp() })
          .from("newsletter_subscribers")
          .insert({ email: "other-ip@example.com" })
      ).status,
    ).toBe(201);
    expect(
      await client.from("demo_requests").insert({ email: "limit@company.example" }),
    ).toMatchObject({ status: 429, error: { code: "over_email_send_rate_limit" } });
  });

  it("counts every address of an IPv6 /64 as one client address", async () => {
    const network = uniqueIpv6Network();
    const insert = (ip: string, i: number) =>
      server
        .client({ ip })
        .from("newsletter_subscribers")
        .insert({ email: `network${i}-${network.replaceAll(":", "-")}@example.com` });
    for (let i = 0; i < 10; i++) expect((await insert(`${network}::${i + 1}`, i)).status).toBe(201);
    expect(await insert(`${network}:ffff::2`, 10)).toMatchObject({
      status: 429,
      error: { code: "over_request_rate_limit" },
    });
    expect((await insert(`${uniqueIpv6Network()}::1`, 11)).status).toBe(201);
  });
});
