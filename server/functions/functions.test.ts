// /functions/v1: the three lead functions through supabase-js, with real proof-of-work captchas
// and a real SMTP server receiving the team's notifications.
import type { SupabaseClient } from "@supabase/supabase-js";
import { FunctionsHttpError } from "@supabase/supabase-js";
import { expect, it } from "vitest";
import { FUNCTIONS } from "../../common/functions.ts";
import { startApiServer, uniqueIp, uniqueIpv6Network } from "../../tests/support/api-server.ts";
import { fetchChallenge, solvedPayload } from "../../tests/support/captcha.ts";
import {
  describeEachDatabase,
  describeWithDatabase,
  openAgain,
  type DatabaseContext,
} from "../../tests/support/databases.ts";
import { REQUEST_ACCESS_MESSAGES, REQUEST_DEMO_MESSAGES } from "../../tests/support/leads.ts";
import { addressOf } from "../../tests/support/smtp.ts";
import { useTestServer } from "../../tests/support/test-server.ts";

const access = {
  firstName: "Ada",
  lastName: "Lovelace",
  email: "Ada@Analytical.example",
  companyName: "Analytical Engines",
  companySize: "51-200",
  department: "Sales",
};
const contact = {
  name: "Grace Hopper",
  email: "grace@navy.example",
  phone: "+1 (206) 555-0100",
  message: "Can Revwise log calls to Dynamics?\nThanks!",
};
const demo = {
  name: "Tom Alvarez",
  email: "tom@lumen-freight.example",
  phone: "206 555 0199",
  company: "Lumen Freight",
  position: "VP Sales",
  website: "",
};

/** The suite's test server on its database, and the requests and reads its tests make. */
function useLeadFunctions(ctx: DatabaseContext) {
  const { server, smtp } = useTestServer(() => ctx.db, {
    env: { NOTIFY_EMAIL: "sales@revwise.example" },
  });

  const client = (): SupabaseClient => server.client({ ip: uniqueIp() });
  const invoke = async (supabase: SupabaseClient, name: string, body: unknown) => {
    const { data, error } = await supabase.functions.invoke(name, {
      body: body as Record<string, unknown>,
    });
    if (!error) return { status: 200, body: data as Record<string, unknown> };
    if (error instanceof FunctionsHttpError) {
      const res = error.context as Response;
      return { status: res.status, body: (await res.json()) as Record<string, unknown> };
    }
    throw error;
  };
  const rows = (table: string, email: string) =>
    ctx.db.query(`SELECT * FROM public.${table} WHERE email = $1`, [email]);
  return { server, smtp, client, invoke, rows };
}

describeWithDatabase("lead functions", (ctx) => {
  const { server, smtp, client, invoke, rows } = useLeadFunctions(ctx);

  it("stores a request for access and emails the team every field", async () => {
    const source = {
      page: "/",
      referrer: "https://search.example/",
      utm_source: "linkedin",
      utm_medium: "social",
      utm_campaign: "launch",
    };
    const res = await invoke(client(), FUNCTIONS.requestAccess, {
      ...access,
      captcha: await solvedPayload(server.url),
      source,
    });
    expect(res).toEqual({
      status: 200,
      body: { ok: true, id: expect.any(String), message: expect.any(String) },
    });
    const [row] = await rows("access_requests", "ada@analytical.example");
    expect(row).toMatchObject({
      first_name: "Ada",
      last_name: "Lovelace",
      company_name: "Analytical Engines",
      company_size: "51-200",
      department: "Sales",
      source,
    });

    const mail = await smtp.waitFor(
      (m) => m.subject === "New access request: Ada Lovelace (Analytical Engines)",
    );
    expect(addressOf(mail)).toBe("sales@revwise.example");
    expect(mail.replyTo?.value[0]?.address).toBe("ada@analytical.example");
    for (const text of [
      "First name: Ada",
      "Last name: Lovelace",
      "Email: ada@analytical.example",
      "Company: Analytical Engines",
      "Company size: 51-200 employees",
      "Department: Sales",
      "UTM campaign: launch",
      "Page: /",
    ]) {
      expect(mail.text).toContain(text);
    }
    expect(mail.messageId).toBe(
      `<${(await ctx.db.query<{ id: string }>("SELECT id FROM mail.outbox WHERE kind = 'notify-access-request'"))[0]!.id}@outbox.revwise>`,
    );
  });

  it("stores a contact message and escapes what the visitor typed in the email's HTML", async () => {
    const res = await invoke(client(), FUNCTIONS.contact, {
      ...contact,
      message: "<script>alert(1)</script> & <b>bold</b>",
      captcha: await solvedPayload(server.url),
    });
    expect(res.status).toBe(200);
    const mail = await smtp.waitFor((m) => m.subject === "New contact message from Grace Hopper");
    expect(mail.html).toContain(
      "&lt;script&gt;alert(1)&lt;/script&gt; &amp; &lt;b&gt;bold&lt;/b&gt;",
    );
    expect(mail.html).not.toContain("<script>");
    expect(mail.text).toContain("Phone: +1 (206) 555-0100");
    // The team's email links to the lead itself, and says when it came in the team's time zone.
    const [stored] = await ctx.db.query<{ id: string }>(
      "SELECT id FROM public.contact_messages WHERE message LIKE '<script>%' ORDER BY created_at DESC LIMIT 1",
    );
    expect(mail.text).toContain(`Open the lead: ${server.url}/team#inbox/lead/${stored!.id}`);
    expect(mail.html).toContain(`href="${server.url}/team#inbox/lead/${stored!.id}"`);
    expect(mail.text).toMatch(/Received: \w{3} \d+, \d{4}, \d+:\d\d [AP]M P[SD]T/);
  });

  it("stores a request from the Request Demo page, website optional", async () => {
    const res = await invoke(client(), FUNCTIONS.requestDemo, {
      ...demo,
      captcha: await solvedPayload(server.url),
    });
    expect(res.status).toBe(200);
    expect(await rows("demo_form_requests", "tom@lumen-freight.example")).toEqual([
      expect.objectContaining({ position: "VP Sales", website: null }),
    ]);
    const mail = await smtp.waitFor(
      (m) => m.subject === "New demo request: Tom Alvarez (Lumen Freight)",
    );
    expect(mail.text).toContain("Website: —");
  });

  it("answers invalid input with 400, the form's own messages, and stores and sends nothing", async () => {
    // Every email leaves through the outbox, queued by the request that causes it: a request that
    // queued none sends none.
    const queued = async () =>
      (await ctx.db.query<{ n: number }>("SELECT count(*)::int AS n FROM mail.outbox"))[0]!.n;
    const before = await queued();
    const res = await invoke(client(), FUNCTIONS.requestAccess, {
      firstName: "A",
      lastName: "",
      email: "nope",
      companyName: "X",
      companySize: "huge",
      department: "",
      captcha: await solvedPayload(server.url),
    });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({
      code: "validation_failed",
      fields: REQUEST_ACCESS_MESSAGES,
    });
    const page = await invoke(client(), FUNCTIONS.requestDemo, { captcha: "x" });
    expect(page.body.fields).toMatchObject(REQUEST_DEMO_MESSAGES);
    for (const body of [[], "a string", 42, null])
      expect((await invoke(client(), FUNCTIONS.contact, body)).status, JSON.stringify(body)).toBe(
        400,
      );
    expect(
      (await ctx.db.query("SELECT 1 FROM public.access_requests WHERE email = 'nope'")).length,
    ).toBe(0);
    expect(await queued()).toBe(before);
  });

  it("refuses missing, forged, tampered and replayed captchas, storing nothing", async () => {
    const email = "captcha@case.example";
    const submit = (captcha: unknown) =>
      invoke(client(), FUNCTIONS.contact, { ...contact, email, captcha });
    expect(await submit(undefined)).toMatchObject({
      status: 400,
      body: {
        code: "captcha_failed",
        message: "Please confirm you're not a robot before submitting.",
      },
    });
    expect((await submit("bm90IGpzb24=")).status).toBe(400);

    const valid = await solvedPayload(server.url);
    const decoded = JSON.parse(Buffer.from(valid, "base64").toString());
    const tampered = {
      ...decoded,
      challenge: { ...decoded.challenge, parameters: { ...decoded.challenge.parameters, cost: 1 } },
    };
    expect((await submit(Buffer.from(JSON.stringify(tampered)).toString("base64"))).status).toBe(
      400,
    );
    // The derived key is the proof of work (only its first half is given away as the target prefix).
    const flipped = decoded.solution.derivedKey.replace(/.$/, (c: string) =>
      c === "0" ? "1" : "0",
    );
    const wrongSolution = { ...decoded, solution: { ...decoded.solution, derivedKey: flipped } };
    expect(
      (await submit(Buffer.from(JSON.stringify(wrongSolution)).toString("base64"))).status,
    ).toBe(400);
    const unsolved = await fetchChallenge(server.url);
    expect(
      (
        await submit(
          Buffer.from(
            JSON.stringify({ challenge: unsolved, solution: { counter: 1, derivedKey: "00" } }),
          ).toString("base64"),
        )
      ).status,
    ).toBe(400);
    expect(await rows("contact_messages", email)).toEqual([]);

    const first = await submit(valid);
    expect(first.status).toBe(200);
    // The same submission sent again (its answer lost on the way) gets the first answer, and
    // stores and sends nothing more; the solution buys no other submission.
    expect(await submit(valid)).toEqual(first);
    const other = await invoke(client(), FUNCTIONS.contact, {
      ...contact,
      email,
      message: "Something else",
      captcha: valid,
    });
    expect(other).toMatchObject({ status: 400, body: { code: "captcha_failed" } });
    expect(await rows("contact_messages", email)).toHaveLength(1);
    const [queued] = await ctx.db.query<{ n: number }>(
      "SELECT count(*)::int AS n FROM public.emails WHERE lead_id = $1",
      [first.body.id],
    );
    expect(queued!.n).toBe(1);
  });

  it("does not burn a captcha on a submission that failed validation", async () => {
    const captcha = await solvedPayload(server.url);
    expect(
      (await invoke(client(), FUNCTIONS.contact, { ...contact, email: "bad", captcha })).status,
    ).toBe(400);
    expect(
      (
        await invoke(client(), FUNCTIONS.contact, {
          ...contact,
          email: "second-try@case.example",
          captcha,
        })
      ).status,
    ).toBe(200);
  });

  it("refuses an expired challenge", async () => {
    // The server's clock, moved on by the test: a second's challenge is solved, then two pass.
    let now = Date.now();
    const shortLived = await startApiServer(ctx.db, {
      captcha: { cost: 10, counterMin: 5, counterMax: 20, ttlSeconds: 1, now: () => now },
    });
    try {
      const captcha = await solvedPayload(shortLived.url);
      now += 2_000;
      const { error } = await shortLived
        .client({ ip: uniqueIp() })
        .functions.invoke(FUNCTIONS.contact, {
          body: { ...contact, email: "late@case.example", captcha },
        });
      expect(((error as FunctionsHttpError).context as Response).status).toBe(400);
      expect(await rows("contact_messages", "late@case.example")).toEqual([]);
    } finally {
      await shortLived.close();
    }
  });

  it("quietly refuses a filled honeypot", async () => {
    const res = await invoke(client(), FUNCTIONS.contact, {
      ...contact,
      email: "bot@spam.example",
      nickname: "http://spam.example",
      captcha: await solvedPayload(server.url),
    });
    expect(res).toMatchObject({ status: 400, body: { code: "rejected" } });
    expect(await rows("contact_messages", "bot@spam.example")).toEqual([]);
  });

  it("requires a valid JWT, like Supabase's functions runtime", async () => {
    const post = (headers: Record<string, string>) =>
      fetch(`${server.url}/functions/v1/${FUNCTIONS.contact}`, {
        method: "POST",
        headers: { "content-type": "application/json", ...headers },
        body: JSON.stringify(contact),
      });
    expect((await post({})).status).toBe(401);
    expect(await (await post({ authorization: "Bearer not.a.jwt" })).json()).toEqual({
      code: "invalid_jwt",
      message: "Invalid JWT",
    });
    expect((await post({ authorization: `Bearer ${server.anonKey}x` })).status).toBe(401);
  });

  it("answers malformed and oversized bodies with 4xx, and unknown functions with 404", async () => {
    const post = (body: string, type = "application/json") =>
      fetch(`${server.url}/functions/v1/${FUNCTIONS.contact}`, {
        method: "POST",
        headers: {
          "content-type": type,
          authorization: `Bearer ${server.anonKey}`,
          "x-forwarded-for": uniqueIp(),
        },
        body,
      });
    expect((await post("{oops")).status).toBe(400);
    expect((await post(JSON.stringify({ ...contact, message: "x".repeat(80_000) }))).status).toBe(
      413,
    );
    expect((await post(JSON.stringify({ ...contact, message: "x".repeat(6000) }))).status).toBe(
      400,
    );
    expect((await post("name=x", "application/x-www-form-urlencoded")).status).toBe(415);
    const missing = await fetch(`${server.url}/functions/v1/no-such-function`, { method: "POST" });
    expect(missing.status).toBe(404);
    expect(await missing.json()).toEqual({
      code: "not_found",
      message: "Requested function was not found",
    });
  });

  it("emails only the team: nothing goes to the address a visitor typed", async () => {
    const typed = {
      [FUNCTIONS.requestAccess]: { ...access, email: "typed-intake@victim.example" },
      [FUNCTIONS.contact]: { ...contact, email: "typed-contact@victim.example" },
      [FUNCTIONS.requestDemo]: { ...demo, email: "typed-demo@victim.example" },
    };
    for (const [name, body] of Object.entries(typed))
      expect(
        (await invoke(client(), name, { ...body, captcha: await solvedPayload(server.url) }))
          .status,
      ).toBe(200);
    const queued = await ctx.db.query<{ to_address: string; reply_to: string }>(
      "SELECT to_address, reply_to FROM mail.outbox WHERE to_address LIKE '%@victim.example' OR reply_to LIKE '%@victim.example' ORDER BY reply_to",
    );
    expect(queued).toEqual([
      { to_address: "sales@revwise.example", reply_to: "typed-contact@victim.example" },
      { to_address: "sales@revwise.example", reply_to: "typed-demo@victim.example" },
      { to_address: "sales@revwise.example", reply_to: "typed-intake@victim.example" },
    ]);
  });

  it("keeps every answer out of caches, errors too", async () => {
    const answers = await Promise.all(
      [
        fetch(`${server.url}/functions/v1/no-such-function`),
        fetch(`${server.url}/functions/v1/${FUNCTIONS.contact}`, { method: "POST" }),
        fetch(`${server.url}/functions/v1/${FUNCTIONS.sessions}`),
      ].map(async (answer) => {
        const res = await answer;
        await res.arrayBuffer();
        return [res.status, res.headers.get("cache-control")];
      }),
    );
    expect(answers).toEqual([
      [404, "no-store"],
      [401, "no-store"],
      [401, "no-store"],
    ]);
  });

  it("serves signed, expiring challenges that are never cached", async () => {
    const res = await fetch(`${server.url}/functions/v1/${FUNCTIONS.captchaChallenge}`);
    expect(res.headers.get("cache-control")).toBe("no-store");
    const challenge = await res.json();
    expect(challenge).toMatchObject({
      signature: expect.stringMatching(/^[0-9a-f]{64}$/),
      parameters: { algorithm: "PBKDF2/SHA-256", expiresAt: expect.any(Number) },
    });
    expect(challenge.parameters.expiresAt * 1000).toBeGreaterThan(Date.now());
  });

  it("limits each client address to 10 submissions a minute per form", async () => {
    const supabase = client();
    for (let i = 0; i < 10; i++)
      expect(
        (await invoke(supabase, FUNCTIONS.contact, { ...contact, email: `burst${i}@case.example` }))
          .status,
      ).toBe(400);
    expect(
      await invoke(supabase, FUNCTIONS.contact, {
        ...contact,
        email: "burst10@case.example",
        captcha: await solvedPayload(server.url),
      }),
    ).toMatchObject({ status: 429, body: { code: "rate_limited" } });
    expect(await rows("contact_messages", "burst10@case.example")).toEqual([]);
  });

  it("counts every address of an IPv6 /64 as one client address: per form, and for the captcha", async () => {
    const network = uniqueIpv6Network();
    const from = (i: number) => server.client({ ip: `${network}::${i.toString(16)}` });
    for (let i = 0; i < 10; i++)
      expect(
        (await invoke(from(i), FUNCTIONS.contact, { ...contact, email: `net${i}@case.example` }))
          .status,
      ).toBe(400);
    expect(
      await invoke(from(10), FUNCTIONS.contact, { ...contact, email: "net10@case.example" }),
    ).toMatchObject({ status: 429, body: { code: "rate_limited" } });
    const challenge = (i: number) =>
      fetch(`${server.url}/functions/v1/${FUNCTIONS.captchaChallenge}`, {
        headers: { "x-forwarded-for": `${network}:${i.toString(16)}::1` },
      });
    for (let i = 0; i < 60; i++) expect((await challenge(i)).status).toBe(200);
    expect((await challenge(60)).status).toBe(429);
  });

  it.for([
    {
      client: "one address",
      tag: "ip",
      addresses: () => {
        const ip = uniqueIp();
        return () => ip;
      },
    },
    {
      client: "the addresses of one IPv6 /64",
      tag: "net",
      addresses: () => {
        const network = uniqueIpv6Network();
        return (i: number) => `${network}:${i.toString(16)}::1`;
      },
    },
  ])(
    "emails the team at most 10 leads in a burst from $client, then one every six minutes",
    async ({ tag, addresses }) => {
      const ipOf = addresses();
      const forms = [
        [FUNCTIONS.contact, contact],
        [FUNCTIONS.requestAccess, access],
        [FUNCTIONS.requestDemo, demo],
      ] as const;
      const send = async (i: number) => {
        const [name, fields] = forms[i % 3]!;
        return fetch(`${server.url}/functions/v1/${name}`, {
          method: "POST",
          headers: {
            apikey: server.anonKey,
            authorization: `Bearer ${server.anonKey}`,
            "content-type": "application/json",
            "x-forwarded-for": ipOf(i),
          },
          body: JSON.stringify({
            ...fields,
            email: `volume${i}-${tag}@case.example`,
            captcha: await solvedPayload(server.url),
          }),
        });
      };
      for (let i = 0; i < 10; i++) expect((await send(i)).status).toBe(200);
      const refused = await send(10);
      expect(refused.status).toBe(429);
      expect(await refused.json()).toMatchObject({ code: "rate_limited" });
      expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(300);
      expect(await rows("access_requests", `volume10-${tag}@case.example`)).toEqual([]);
    },
  );
});

// What only the database decides, on each engine: captchas spent and forgotten by SQL over time,
// and the same submission sent twice at the same moment, to one instance or to two.
describeEachDatabase("lead functions at the same moment", (ctx) => {
  const { server, smtp, client, invoke, rows } = useLeadFunctions(ctx);

  it("forgets used captchas once their challenge has expired, keeping the live ones", async () => {
    await ctx.db.query(
      "INSERT INTO internal.captcha_redemptions (nonce, expires_at) VALUES ('00aa00aa00aa', now() - interval '1 second'), ('00bb00bb00bb', now() + interval '1 hour')",
    );
    const res = await invoke(client(), FUNCTIONS.contact, {
      ...contact,
      email: "prune@case.example",
      captcha: await solvedPayload(server.url),
    });
    expect(res.status).toBe(200);
    const left = await ctx.db.query<{ nonce: string }>(
      "SELECT nonce FROM internal.captcha_redemptions WHERE nonce IN ('00aa00aa00aa', '00bb00bb00bb')",
    );
    expect(left.map((r) => r.nonce)).toEqual(["00bb00bb00bb"]);
  });

  const forms = [
    { name: FUNCTIONS.requestAccess, fields: access, table: "access_requests" },
    { name: FUNCTIONS.contact, fields: contact, table: "contact_messages" },
    { name: FUNCTIONS.requestDemo, fields: demo, table: "demo_form_requests" },
  ] as const;
  /** A form's JSON posted from `ip` to the function `name` of the instance at `url`. */
  const postForm = (url: string, name: string, body: string, ip: string) =>
    fetch(`${url}/functions/v1/${name}`, {
      method: "POST",
      headers: {
        authorization: `Bearer ${server.anonKey}`,
        "content-type": "application/json",
        "x-forwarded-for": ip,
      },
      body,
    }).then(async (res) => ({ status: res.status, body: (await res.json()) as unknown }));
  /**
   * Pairs of the same submission (same fields, same solved captcha) sent at the same moment, a
   * network retry while the first is still running: both get the first's answer, one lead and
   * one email. `urls` gives each copy's instance.
   */
  const overlappingRepeats = async (urls: readonly [string, string], tag: string) => {
    for (const { name, fields, table } of forms)
      for (let pair = 0; pair < 3; pair++) {
        const email = `overlap-${tag}${pair}-${name}@case.example`;
        const captcha = await solvedPayload(server.url, uniqueIp());
        const body = JSON.stringify({ ...fields, email, captcha });
        const [first, second] = await Promise.all(
          urls.map((url) => postForm(url, name, body, uniqueIp())),
        );
        expect(first).toEqual({
          status: 200,
          body: { ok: true, id: expect.any(String), message: expect.any(String) },
        });
        expect(second).toEqual(first);
        const stored = await rows(table, email);
        expect(stored.map((r) => r.id)).toEqual([(first!.body as { id: string }).id]);
        const [queued] = await ctx.db.query<{ n: number }>(
          "SELECT count(*)::int AS n FROM mail.outbox WHERE reply_to = $1",
          [email],
        );
        expect(queued!.n).toBe(1);
      }
  };

  it("answers the same submission sent again while the first is still running as the first", async () => {
    await overlappingRepeats([server.url, server.url], "one");
  });

  it("answers an overlapping repeat as the first across two instances on one database", async () => {
    const again = await openAgain(ctx);
    const other = await startApiServer(again.db, {
      env: { NOTIFY_EMAIL: "sales@revwise.example", SMTP_URL: smtp.url },
    });
    try {
      await overlappingRepeats([server.url, other.url], "two");
    } finally {
      await other.close();
      await again.close();
    }
  });

  it("answers an overlapping repeat of a refused submission with the same refusal, storing nothing", async () => {
    // Ten leads across the forms spend this address's team-lead burst (each form's own limit of
    // ten posts a minute is not reached): the eleventh lead is refused with 429.
    const ip = uniqueIp();
    for (let i = 0; i < 10; i++) {
      const { name, fields } = forms[i % 3]!;
      const body = JSON.stringify({
        ...fields,
        email: `spent${i}@case.example`,
        captcha: await solvedPayload(server.url, ip),
      });
      expect((await postForm(server.url, name, body, ip)).status).toBe(200);
    }
    const body = JSON.stringify({
      ...contact,
      email: "refused-pair@case.example",
      captcha: await solvedPayload(server.url, ip),
    });
    const answers = await Promise.all([
      postForm(server.url, FUNCTIONS.contact, body, ip),
      postForm(server.url, FUNCTIONS.contact, body, ip),
    ]);
    expect(answers).toEqual([
      { status: 429, body: expect.objectContaining({ code: "rate_limited" }) },
      { status: 429, body: expect.objectContaining({ code: "rate_limited" }) },
    ]);
    expect(await rows("contact_messages", "refused-pair@case.example")).toEqual([]);
  });
});
