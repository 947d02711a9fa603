// Every relation the workspace reads and every write it makes, through supabase-js as the
// workspace calls them: who may (members on aal2 read; admins change webhook endpoints and resend
// deliveries) and who gets PostgREST's refusal (anonymous callers, users off the team, members on
// aal1, members where admins only may); the delivery log and the endpoints against a real receiver
// that verifies each signature; the history of a lead's status with who changed it; page
// statistics by day.
import type { SupabaseClient } from "@supabase/supabase-js";
import { afterAll, beforeAll, expect, it } from "vitest";
import { describeAuthSuite } from "../../tests/support/auth-suite.ts";
import { readUntil } from "../../tests/support/poll.ts";
import { teamMember } from "../../tests/support/team.ts";
import {
  startWebhookReceiver,
  type WebhookReceiver,
} from "../../tests/support/webhook-receiver.ts";
import { READABLE } from "./readable.ts";

type Read = (s: SupabaseClient) => PromiseLike<{ status: number; error: unknown }>;

/** Every read path: each relation of readable.ts, and the page statistics (with their range). */
const READS: [string, Read][] = [
  ...Object.keys(READABLE).map((name): [string, Read] => [
    name,
    (s) => s.from(name).select().limit(5),
  ]),
  [
    "page_stats",
    (s) => s.from("page_stats").select().gte("day", "2026-01-01").lte("day", "2026-01-31"),
  ],
];

let receiver: WebhookReceiver;
beforeAll(async () => {
  receiver = await startWebhookReceiver();
});
afterAll(() => receiver.stop());

describeAuthSuite("rest: the workspace's reads and writes", (suite) => {
  const { server, client, confirmedUser, ctx } = suite;
  let member: SupabaseClient;
  let admin: SupabaseClient;
  let adminEmail: string;
  let aal1: SupabaseClient;
  let outsider: SupabaseClient;

  beforeAll(async () => {
    ({ supabase: member } = await teamMember(suite, "ws-member", { aal2: true }));
    ({ supabase: admin, email: adminEmail } = await teamMember(suite, "ws-admin", {
      aal2: true,
      role: "admin",
    }));
    ({ supabase: aal1 } = await teamMember(suite, "ws-aal1", { aal2: false }));
    ({ supabase: outsider } = await confirmedUser("ws-outsider"));
  });

  it("answers every read path with rows to members on aal2 only (to admins only where so marked)", async () => {
    for (const [name, read] of READS) {
      const adminOnly = Boolean(READABLE[name]?.adminOnly);
      const refusals = [
        [await read(client()), 401],
        [await read(outsider), 403],
        [await read(aal1), 403],
        ...(adminOnly ? [[await read(member), 403] as const] : []),
      ] as const;
      for (const [answer, status] of refusals)
        expect([name, answer.status, answer.error]).toEqual([
          name,
          status,
          expect.objectContaining({ code: "42501" }),
        ]);
      for (const reader of adminOnly ? [admin, server.admin()] : [member, admin, server.admin()]) {
        const answer = await read(reader);
        expect([name, answer.status, answer.error]).toEqual([name, 200, null]);
      }
      // The CSV export is the same read.
      const csv = await fetch(`${server.url}/rest/v1/${name}`, {
        headers: { apikey: server.anonKey, accept: "text/csv" },
      });
      expect([name, csv.status]).toEqual([name, 401]);
    }
  });

  it("answers what PostgREST answers to another schema, an unknown media type and a write to a view", async () => {
    const token = (await member.auth.getSession()).data.session!.access_token;
    const as = (path: string, init: RequestInit & { headers?: Record<string, string> } = {}) =>
      fetch(`${server.url}/rest/v1/${path}`, {
        ...init,
        headers: { apikey: server.anonKey, authorization: `Bearer ${token}`, ...init.headers },
      });
    const answer = async (res: Response) => [res.status, (await res.json()).code];
    expect(await answer(await as("leads", { headers: { "accept-profile": "auth" } }))).toEqual([
      406,
      "PGRST106",
    ]);
    expect(await answer(await as("leads", { headers: { accept: "application/xml" } }))).toEqual([
      406,
      "PGRST107",
    ]);
    expect(
      (await as("leads?limit=1", { headers: { accept: "application/xml, */*;q=0.1" } })).status,
    ).toBe(200);
    for (const [method, path] of [
      ["PATCH", "leads?id=eq.00000000-0000-4000-8000-000000000000"],
      ["DELETE", "emails?id=eq.00000000-0000-4000-8000-000000000000"],
      ["GET", "lead_states"],
    ] as const) {
      expect([
        method,
        path,
        ...(await answer(
          await as(path, {
            method,
            body: method === "PATCH" ? "{}" : undefined,
            headers: { "content-type": "application/json" },
          }),
        )),
      ]).toEqual([method, path, 403, "42501"]);
      const anonymous = await fetch(`${server.url}/rest/v1/${path}`, {
        method,
        headers: { apikey: server.anonKey },
      });
      expect([method, path, anonymous.status]).toEqual([method, path, 401]);
    }
  });

  it("reads booleans in filters as PostgreSQL does, refusing an unreadable one with its 22P02", async () => {
    for (const value of ["true", "YES", " on ", "t", "1"]) {
      const { error, status } = await member
        .from("webhook_endpoints")
        .select("id")
        .filter("enabled", "eq", value);
      expect([value, status, error]).toEqual([value, 200, null]);
    }
    for (const filter of ["enabled=eq.maybe", "enabled=in.(t,maybe)", "enabled=neq.o"]) {
      const token = (await member.auth.getSession()).data.session!.access_token;
      for (const accept of ["application/json", "text/csv"]) {
        const res = await fetch(`${server.url}/rest/v1/webhook_endpoints?${filter}`, {
          headers: { apikey: server.anonKey, authorization: `Bearer ${token}`, accept },
        });
        expect([filter, accept, res.status, await res.json()]).toEqual([
          filter,
          accept,
          400,
          expect.objectContaining({
            code: "22P02",
            message: expect.stringMatching(/^invalid input syntax for type boolean: "(maybe|o)"$/),
          }),
        ]);
      }
    }
  });

  it("lets admins add an endpoint (its secret shown once) that receives signed events of new leads", async () => {
    const added = await admin
      .from("webhook_endpoints")
      .insert({ url: receiver.url, secret: receiver.secret, description: "CRM" })
      .select();
    expect(added.error).toBeNull();
    const endpoint = added.data![0]!;
    expect(endpoint).toMatchObject({
      url: receiver.url,
      secret: receiver.secret,
      enabled: true,
      from_environment: false,
    });
    // Stored sealed: the database alone holds no usable secret.
    const [stored] = await ctx.db.query<{ secret: string }>(
      "SELECT secret FROM public.webhook_endpoints WHERE id = $1",
      [endpoint.id],
    );
    expect(stored!.secret).not.toContain(receiver.secret.slice("whsec_".length));
    const listed = await member.from("webhook_endpoints").select().eq("id", endpoint.id).single();
    expect(listed.data).toMatchObject({ url: receiver.url, description: "CRM" });
    expect(Object.keys(listed.data!)).not.toContain("secret");
    expect((await member.from("webhook_endpoints").select("secret")).error).toMatchObject({
      code: "42703",
    });

    // Leads stored before the endpoint's start get no event; those after, one each.
    const visitor = client();
    const early = `early-${Date.now()}@crm.example`;
    await visitor.from("demo_requests").insert({ email: early });
    const [earlyLead] = await ctx.db.query<{ id: string }>(
      "SELECT id FROM public.demo_requests WHERE email = $1",
      [early],
    );
    const [{ n }] = (await ctx.db.query<{ n: number }>(
      "SELECT count(*)::int AS n FROM public.webhook_deliveries WHERE lead_id = $1",
      [earlyLead!.id],
    )) as [{ n: number }];
    expect(n).toBe(0);

    // Its events_from comes (a few seconds after it was made) without waiting for it.
    await ctx.db.query("UPDATE public.webhook_endpoints SET events_from = now() WHERE id = $1", [
      endpoint.id,
    ]);
    const email = `crm-${Date.now()}@crm.example`;
    expect((await visitor.from("demo_requests").insert({ email })).error).toBeNull();
    await receiver.waitFor((r) => r.some((x) => x.event.data.email === email));
    const receipt = receiver.receipts.find((x) => x.event.data.email === email)!;

    // The log shows it delivered once the sender has recorded the receiver's answer.
    const deliveredLog = await readUntil(
      async () =>
        (
          await member
            .from("webhook_deliveries")
            .select()
            .eq("lead_id", receipt.event.data.id)
            .single()
        ).data,
      (data) => data?.status !== "pending",
    );
    expect(deliveredLog).toMatchObject({
      id: receipt.id,
      endpoint_url: receiver.url,
      status: "delivered",
      last_status: 204,
    });

    // Admins resend a delivery: the same event, under the same webhook-id.
    expect((await member.rpc("resend_webhook", { delivery_id: receipt.id })).error).toMatchObject({
      code: "42501",
    });
    const resent = await admin.rpc("resend_webhook", { delivery_id: receipt.id });
    expect(resent).toMatchObject({ error: null, data: true });
    await receiver.waitFor(() => receiver.accepted(receipt.id).length === 2);
    expect(receiver.forged).toBe(0);

    // Disabled, then deleted with its deliveries.
    const disabled = await admin
      .from("webhook_endpoints")
      .update({ enabled: false })
      .eq("id", endpoint.id)
      .select();
    expect(disabled.data).toEqual([expect.objectContaining({ enabled: false })]);
    const deleted = await admin.from("webhook_endpoints").delete().eq("id", endpoint.id);
    expect([deleted.status, deleted.error]).toEqual([204, null]);
    expect((await member.from("webhook_deliveries").select().eq("id", receipt.id)).data).toEqual(
      [],
    );
  });

  it("refuses endpoint changes from members, bad URLs and secrets, and changes without a filter", async () => {
    const before = (await ctx.db.query("SELECT id FROM public.webhook_endpoints")).length;
    const byMember = await member.from("webhook_endpoints").insert({ url: receiver.url });
    expect([byMember.status, byMember.error?.code]).toEqual([403, "42501"]);
    const anonymous = await client().from("webhook_endpoints").insert({ url: receiver.url });
    expect([anonymous.status, anonymous.error?.code]).toEqual([401, "42501"]);
    for (const url of [
      "http://crm.example/hook",
      "ftp://127.0.0.1/",
      "https://user:pw@crm.example/",
      "no url",
    ]) {
      const bad = await admin.from("webhook_endpoints").insert({ url });
      expect([url, bad.status, bad.error?.code]).toEqual([url, 400, "23514"]);
    }
    const badSecret = await admin
      .from("webhook_endpoints")
      .insert({ url: "https://crm.example/hook", secret: "whsec_short" });
    expect(badSecret.error?.code).toBe("23514");
    const unknown = await admin
      .from("webhook_endpoints")
      .insert({ url: "https://crm.example/hook", token: "x" });
    expect(unknown.error?.code).toBe("PGRST204");
    // One endpoint a request: several are refused as such, not as JSON that could not be read.
    const several = await admin
      .from("webhook_endpoints")
      .insert([{ url: "https://crm.example/a" }, { url: "https://crm.example/b" }]);
    expect([several.status, several.error?.code, several.error?.message]).toEqual([
      400,
      "PGRST102",
      "One row per request",
    ]);
    const everything = await admin
      .from("webhook_endpoints")
      .update({ enabled: false })
      .neq("url", "");
    expect([everything.status, everything.error?.code]).toEqual([400, "21000"]);
    const noFilter = await admin.from("webhook_endpoints").delete().gte("created_at", "2000-01-01");
    expect(noFilter.error?.code).toBe("21000");
    expect((await ctx.db.query("SELECT id FROM public.webhook_endpoints")).length).toBe(before);

    // A secret is made when none is given: a Standard Webhooks one.
    const made = await admin
      .from("webhook_endpoints")
      .insert({ url: "https://crm.example/hook" })
      .select();
    expect(made.data![0].secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    await admin.from("webhook_endpoints").delete().eq("id", made.data![0].id);
  });

  it("shows who changed a lead's work and wrote its notes, and the history of changes in order", async () => {
    const email = `history-${Date.now()}@lumen.example`;
    await client().from("demo_requests").insert({ email });
    const lead = await member.from("leads").select("id,kind").eq("email", email).single();
    expect(lead.error).toBeNull();
    const key = { kind: lead.data!.kind, lead_id: lead.data!.id };
    await admin.from("lead_states").upsert({ ...key, status: "contacted" });
    await member.from("lead_states").upsert({ ...key, status: "lost", lost_reason: "No budget" });
    await member.from("lead_notes").insert({ ...key, body: "Asked for pricing" });
    const shown = await member.from("leads").select().eq("id", key.lead_id).single();
    expect(shown.data).toMatchObject({ status: "lost", lost_reason: "No budget" });
    expect(shown.data!.status_updated_by_email).toMatch(/^ws-member/);
    const history = await member
      .from("lead_state_changes")
      .select("fields,status,lost_reason,changed_by_email")
      .eq("lead_id", key.lead_id)
      .order("changed_at");
    expect(history.data).toEqual([
      { fields: ["status"], status: "contacted", lost_reason: null, changed_by_email: adminEmail },
      {
        fields: ["status"],
        status: "lost",
        lost_reason: "No budget",
        changed_by_email: shown.data!.status_updated_by_email,
      },
    ]);
    const notes = await member
      .from("lead_notes")
      .select("body,created_by_email")
      .eq("lead_id", key.lead_id);
    expect(notes.data).toEqual([
      { body: "Asked for pricing", created_by_email: shown.data!.status_updated_by_email },
    ]);
  });

  it("leaves junk out of the conversion figures", async () => {
    const [junk] = await ctx.db.query<{ id: string }>(
      `INSERT INTO public.contact_messages (name, email, phone, message, source, created_at)
       VALUES ('Spam Bot', 'bot@junk.example', '1', 'Buy now', '{"page": "/junk-test"}', '2026-03-05T10:00:00Z')
       RETURNING id`,
    );
    const day = async () =>
      (await member.from("page_stats").select().gte("day", "2026-03-05").lte("day", "2026-03-05"))
        .data;
    expect(await day()).toEqual([
      { day: "2026-03-05", path: "/junk-test", views: 0, visitors: 0, leads: 1, converted: 0 },
    ]);
    await member.from("lead_states").upsert({ kind: "contact", lead_id: junk!.id, status: "junk" });
    expect(await day()).toEqual([]);
  });

  it("reads page statistics for a range of days: views, visitors and the leads each page brought", async () => {
    await ctx.db.query(
      `INSERT INTO analytics.page_views (day, path, referrer, campaign, views)
       VALUES ('2026-03-02', '/pricing-test', 'news.example', '', 7),
              ('2026-03-02', '/pricing-test', '', 'spring', 3)`,
    );
    await ctx.db.query(
      `INSERT INTO public.contact_messages (name, email, phone, message, source, created_at)
       VALUES ('Ana Ruiz', 'ana@stats.example', '+1 206 555 0102', 'Hello there, pricing?',
               '{"page": "/pricing-test"}', '2026-03-02T10:00:00Z')`,
    );
    const stats = await member
      .from("page_stats")
      .select()
      .gte("day", "2026-03-01")
      .lte("day", "2026-03-03");
    expect(stats.data).toEqual([
      { day: "2026-03-02", path: "/pricing-test", views: 10, visitors: 0, leads: 1, converted: 0 },
    ]);
    for (const bad of [
      member.from("page_stats").select(),
      member.from("page_stats").select().gte("day", "2025-01-01").lte("day", "2026-03-03"),
      member.from("page_stats").select().gte("day", "2026-02-30").lte("day", "2026-03-03"),
      member.from("page_stats").select().eq("path", "/").gte("day", "2026-03-01"),
    ]) {
      const answer = await bad;
      expect([answer.status, answer.data]).toEqual([400, null]);
    }
  });
});
