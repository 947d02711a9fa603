// Webhooks to the CRM, end to end on both engines: leads posted with the real supabase-js client
// (REST inserts and the lead functions with solved captchas) reach a real receiver on loopback
// that verifies every Standard Webhooks signature with the `standardwebhooks` package; outages,
// refusals, a second instance on the same database and the workspace's resend.
import type { SupabaseClient } from "@supabase/supabase-js";
import { afterAll, expect, it } from "vitest";
import { FUNCTIONS } from "../../common/functions.ts";
import { startApiServer, uniqueIp, type ApiServer } from "../../tests/support/api-server.ts";
import { solvedPayload } from "../../tests/support/captcha.ts";
import { describeEachDatabase } from "../../tests/support/databases.ts";
import { readUntil, waitUntil } from "../../tests/support/poll.ts";
import { emailTo } from "../../tests/support/auth.ts";
import { LEAD_FORMS } from "../../tests/support/leads.ts";
import { CONFIRM_SUBJECT, newsletterLink } from "../../tests/support/newsletter.ts";
import { useTestServer } from "../../tests/support/test-server.ts";
import { startWebhookReceiver, webhookSecret } from "../../tests/support/webhook-receiver.ts";
import { SecretBox } from "../security/secret-box.ts";
import { ENV_ENDPOINT_ID, openSecret, syncEnvEndpoint } from "./endpoints.ts";
import { retryAfterMs } from "./webhook-worker.ts";

type Delivery = {
  id: string;
  endpoint_id: string;
  lead_id: string;
  attempts: number;
  last_status: number | null;
  last_error: string | null;
  delivered_at: Date | null;
  failed_at: Date | null;
};

/** The CRM's receiver, LEAD_WEBHOOK_URL of every server below. */
const receiver = await startWebhookReceiver();
afterAll(() => receiver.stop());

describeEachDatabase("lead webhooks", (ctx) => {
  const { server, smtp } = useTestServer(() => ctx.db, { env: receiver.env });
  const client = (): SupabaseClient => server.client({ ip: uniqueIp() });

  const deliveriesOf = (leadId: string) =>
    ctx.db.query<Delivery>(
      "SELECT * FROM public.webhook_deliveries WHERE lead_id = $1 ORDER BY endpoint_id",
      [leadId],
    );
  /** Polls the delivery of a lead to the env endpoint until `done` holds for it. */
  async function deliveryWhen(leadId: string, done: (d: Delivery) => boolean): Promise<Delivery> {
    return (await readUntil(
      async () => (await deliveriesOf(leadId)).find((r) => r.endpoint_id === ENV_ENDPOINT_ID),
      (d) => d !== undefined && done(d),
    ))!;
  }
  const leadIdOf = async (table: string, email: string) =>
    (
      await ctx.db.query<{ id: string }>(`SELECT id FROM public.${table} WHERE email = $1`, [email])
    )[0]!.id;

  const submit = async (name: string, body: Record<string, unknown>) => {
    const { data, error } = await client().functions.invoke(name, {
      body: { ...body, captcha: await solvedPayload(server.url) },
    });
    expect(error).toBeNull();
    return (data as { id: string }).id;
  };
  const contactLead = (email: string) =>
    submit(FUNCTIONS.contact, { ...LEAD_FORMS[FUNCTIONS.contact].body, email });
  /** Follows the newest confirmation link emailed to `email` (its POST, as the page sends it). */
  const confirmByEmail = async (email: string) => {
    const link = newsletterLink(await emailTo(smtp, email, CONFIRM_SUBJECT), "/newsletter/confirm");
    expect((await fetch(link, { method: "POST" })).status).toBe(200);
  };

  it("sends each new lead of the five forms once, signed, with its fields and source", async () => {
    const source = {
      page: "/pricing",
      referrer: "https://search.example/",
      utm_source: "linkedin",
      utm_campaign: "launch",
    };
    const news = `news-${ctx.kind}@reader.example`;
    const watch = `ops-${ctx.kind}@lumen-freight.example`;
    expect(
      (await client().from("newsletter_subscribers").insert({ email: news, source })).error,
    ).toBeNull();
    expect(
      (await client().from("demo_requests").insert({ email: watch, source })).error,
    ).toBeNull();
    const ids: Record<string, string> = {
      newsletter: await leadIdOf("newsletter_subscribers", news),
      watch_demo: await leadIdOf("demo_requests", watch),
    };
    // A newsletter sign-up goes to the CRM once its address is confirmed.
    await confirmByEmail(news);
    for (const [kind, name] of [
      ["request_access", FUNCTIONS.requestAccess],
      ["contact", FUNCTIONS.contact],
      ["request_demo", FUNCTIONS.requestDemo],
    ] as const)
      ids[kind] = await submit(name, { ...LEAD_FORMS[name].body, source });

    for (const [kind, leadId] of Object.entries(ids)) {
      const d = await deliveryWhen(leadId, (r) => r.delivered_at !== null);
      expect(d).toMatchObject({ attempts: 1, last_status: 204, last_error: null, failed_at: null });
      const [receipt, ...again] = receiver.accepted(d.id);
      expect(again).toEqual([]);
      expect(receipt!.event).toEqual({
        type: "lead.created",
        timestamp: receipt!.event.data.created_at,
        data: expect.objectContaining({ id: leadId, kind, source }),
      });
      expect(new Date(receipt!.event.data.created_at).toISOString()).toBe(
        receipt!.event.data.created_at,
      );
    }
    const access = receiver.accepted((await deliveryWhen(ids.request_access!, () => true)).id)[0]!
      .event.data;
    expect(access).toMatchObject({
      first_name: "Ada",
      last_name: "Lovelace",
      email: "ada@analytical.example",
      company_name: "Analytical Engines",
      company_size: "51-200",
      department: "Sales",
    });
    const news_ = receiver.accepted((await deliveryWhen(ids.newsletter!, () => true)).id)[0]!;
    expect(news_.event.data).toEqual({
      id: ids.newsletter,
      kind: "newsletter",
      created_at: news_.event.data.created_at,
      email: news,
      source,
    });
    expect(receiver.forged).toBe(0);
  });

  it("sends an event again only as a counted attempt when the server's process stalls while the receiver answers", async () => {
    // The process (server and receiver alike) stops running for most of the 1 s lease while the
    // request is in the receiver's hands, as on a machine whose cores are all taken.
    receiver.answer((n) => {
      if (n === 0) {
        const end = performance.now() + 850;
        while (performance.now() < end);
      }
      return { status: 204 };
    });
    try {
      const leadId = await contactLead(`stall-${ctx.kind}@lumen-freight.example`);
      const d = await deliveryWhen(leadId, (r) => r.delivered_at !== null);
      // Sent once; sent again only if the database's lease ran out meanwhile, and then counted.
      expect(receiver.accepted(d.id)).toHaveLength(d.attempts);
    } finally {
      receiver.answer(undefined);
    }
  });

  it("sends a newsletter sign-up once, when its address is confirmed, never while it is pending", async () => {
    const email = `once-${ctx.kind}@reader.example`;
    expect((await client().from("newsletter_subscribers").insert({ email })).error).toBeNull();
    const leadId = await leadIdOf("newsletter_subscribers", email);
    // The sign-up's statement would have queued its events with the row: there are none.
    expect(await deliveriesOf(leadId)).toEqual([]);
    await confirmByEmail(email);
    const first = await deliveryWhen(leadId, (d) => d.delivered_at !== null);
    expect(receiver.accepted(first.id)).toHaveLength(1);

    // Confirmed again, unsubscribed, signed up and confirmed anew (the first link works again):
    // still the one event.
    const mail = await emailTo(smtp, email, CONFIRM_SUBJECT);
    const confirm = newsletterLink(mail, "/newsletter/confirm");
    expect((await fetch(confirm, { method: "POST" })).status).toBe(200);
    const unsubscribe = newsletterLink(mail, "/newsletter/unsubscribe");
    expect((await fetch(unsubscribe, { method: "POST" })).status).toBe(200);
    expect((await client().from("newsletter_subscribers").insert({ email })).error).toBeNull();
    expect((await fetch(confirm, { method: "POST" })).status).toBe(200);
    expect(
      await ctx.db.query("SELECT status FROM public.newsletter_subscribers WHERE id = $1", [
        leadId,
      ]),
    ).toEqual([{ status: "subscribed" }]);
    expect(await deliveriesOf(leadId)).toHaveLength(1);
  });

  it("queues nothing for a lead refused by validation, nor for a repeated Watch Demo", async () => {
    const before = await ctx.db.query<{ n: number }>(
      "SELECT count(*)::int AS n FROM public.webhook_deliveries",
    );
    const refused = await client().from("demo_requests").insert({ email: "me@gmail.com" });
    expect(refused.error).not.toBeNull();
    const { error } = await client().functions.invoke(FUNCTIONS.contact, {
      body: { ...LEAD_FORMS[FUNCTIONS.contact].body, email: "not an address" },
    });
    expect(error).not.toBeNull();
    // A repeat of the same Watch Demo address stores no new lead, so no new event.
    const again = `again-${ctx.kind}@lumen-freight.example`;
    await client().from("demo_requests").insert({ email: again });
    const leadId = await leadIdOf("demo_requests", again);
    await client().from("demo_requests").insert({ email: again });
    expect(await deliveriesOf(leadId)).toHaveLength(1);
    // The repeat is a contact all the same: it renews the lead's time kept (decision 0033).
    const [renewed] = await ctx.db.query<{ last_requested_at: Date | null; created_at: Date }>(
      "SELECT last_requested_at, created_at FROM public.demo_requests WHERE id = $1",
      [leadId],
    );
    expect(renewed!.last_requested_at!.getTime()).toBeGreaterThanOrEqual(
      renewed!.created_at.getTime(),
    );
    const after = await ctx.db.query<{ n: number }>(
      "SELECT count(*)::int AS n FROM public.webhook_deliveries",
    );
    expect(after[0]!.n).toBe(before[0]!.n + 1);
  });

  it("keeps retrying while the receiver is down and delivers once when it is back", async () => {
    await receiver.stop();
    let leadId: string | undefined;
    try {
      leadId = await contactLead(`down-${ctx.kind}@navy.example`);
      const failing = await deliveryWhen(leadId, (d) => d.attempts >= 2);
      // What the workspace shows: the kind of failure, never the address connected to.
      expect(failing.last_error).toBe("could not connect to the endpoint");
      expect(failing.last_status).toBeNull();
      expect(failing.delivered_at).toBeNull();
    } finally {
      await receiver.start();
    }
    const d = await deliveryWhen(leadId!, (r) => r.delivered_at !== null);
    // At least one attempt failed before it; the second may already have been under way (its
    // attempt counted) when the receiver came back, and delivered.
    expect(d.attempts).toBeGreaterThanOrEqual(2);
    expect(d).toMatchObject({ last_status: 204, last_error: null });
    expect(receiver.accepted(d.id)).toHaveLength(1);
  });

  it("retries a 500 and honours Retry-After, then records the 2xx", async () => {
    receiver.answer((n) =>
      n === 0
        ? { status: 500 }
        : n === 1
          ? { status: 503, headers: { "retry-after": "1" } }
          : { status: 200 },
    );
    try {
      const leadId = await contactLead(`flaky-${ctx.kind}@navy.example`);
      const d = await deliveryWhen(leadId, (r) => r.delivered_at !== null);
      expect(d).toMatchObject({ attempts: 3, last_status: 200, last_error: null });
      const tries = receiver.receipts.filter((r) => r.id === d.id);
      expect(tries.map((r) => r.status)).toEqual([500, 503, 200]);
      // The retry after the 503 waited for its Retry-After (1 s), not the 0.1 s backoff.
      expect(tries[2]!.at - tries[1]!.at).toBeGreaterThanOrEqual(950);
    } finally {
      receiver.answer(undefined);
    }
  });

  it("sends to every enabled endpoint, each event under its own webhook-id", async () => {
    const crm = await startWebhookReceiver(webhookSecret());
    const [endpoint] = await ctx.db.query<{ id: string }>(
      "INSERT INTO public.webhook_endpoints (url, secret, description) VALUES ($1, $2, 'second CRM') RETURNING id",
      [crm.url, crm.secret],
    );
    try {
      const leadId = await contactLead(`both-${ctx.kind}@navy.example`);
      const rows = await deliveriesOf(leadId);
      expect(rows.map((r) => r.endpoint_id).sort()).toEqual([ENV_ENDPOINT_ID, endpoint!.id].sort());
      const other = rows.find((r) => r.endpoint_id === endpoint!.id)!;
      await crm.waitFor(() => crm.accepted(other.id).length === 1);
      await deliveryWhen(leadId, (r) => r.delivered_at !== null);
      expect(crm.accepted(other.id)[0]!.event.data.id).toBe(leadId);
      // One event per (lead, endpoint): a second row for the pair is refused.
      await expect(
        ctx.db.query(
          "INSERT INTO public.webhook_deliveries (endpoint_id, lead_id, payload) VALUES ($1, $2, '{}')",
          [endpoint!.id, leadId],
        ),
      ).rejects.toThrow(/webhook_deliveries_endpoint_lead_key/);
    } finally {
      await ctx.db.query("UPDATE public.webhook_endpoints SET enabled = false WHERE id = $1", [
        endpoint!.id,
      ]);
      await crm.stop();
    }
  });

  it("queues no event while no endpoint is enabled, and again once one is (read every second on PostgreSQL)", async () => {
    const setEnabled = async (enabled: boolean) => {
      await ctx.db.query("UPDATE public.webhook_endpoints SET enabled = $2 WHERE id = $1", [
        ENV_ENDPOINT_ID,
        enabled,
      ]);
      // Another instance's change is read within a second. The embedded database has no other
      // instance: the workspace's own changes refresh at once, as this one does.
      if (ctx.kind === "pglite") await server.app.webhooks.refresh();
      await waitUntil(async () => server.app.webhooks.any() === enabled, 5_000);
    };
    await setEnabled(false);
    try {
      const quiet = await contactLead(`quiet-${ctx.kind}@navy.example`);
      expect(await deliveriesOf(quiet)).toEqual([]);
    } finally {
      await setEnabled(true);
    }
    const heard = await contactLead(`heard-${ctx.kind}@navy.example`);
    const d = await deliveryWhen(heard, (r) => r.delivered_at !== null);
    expect(receiver.accepted(d.id)).toHaveLength(1);
  });

  it("resends a delivered event on demand, under the same webhook-id", async () => {
    const leadId = await contactLead(`resend-${ctx.kind}@navy.example`);
    const d = await deliveryWhen(leadId, (r) => r.delivered_at !== null);
    expect(await server.app.webhooks.resend(d.id)).toBe(true);
    await receiver.waitFor(() => receiver.accepted(d.id).length === 2);
    const again = await deliveryWhen(leadId, (r) => r.delivered_at !== null);
    expect(again).toMatchObject({ attempts: 1, last_status: 204 });
    const [first, second] = receiver.accepted(d.id);
    expect(second!.event).toEqual(first!.event);
    expect(await server.app.webhooks.resend("00000000-0000-4000-8000-000000000000")).toBe(false);
  });

  it("marks a delivery failed after its last attempt, and a resend delivers it", async () => {
    const crm = await startWebhookReceiver(webhookSecret());
    crm.answer(() => ({ status: 410 }));
    const [endpoint] = await ctx.db.query<{ id: string }>(
      "INSERT INTO public.webhook_endpoints (url, secret) VALUES ($1, $2) RETURNING id",
      [crm.url, crm.secret],
    );
    try {
      // A delivery that has used all its attempts but one (24 by default).
      const [queued] = await ctx.db.query<{ id: string }>(
        `INSERT INTO public.webhook_deliveries (endpoint_id, lead_id, payload, attempts)
         VALUES ($1, gen_random_uuid(), '{"type":"lead.created"}', 23) RETURNING id`,
        [endpoint!.id],
      );
      const id = queued!.id;
      server.app.webhooks.flush();
      const failed = async () =>
        (
          await ctx.db.query<Delivery>("SELECT * FROM public.webhook_deliveries WHERE id = $1", [
            id,
          ])
        )[0]!;
      expect(await readUntil(failed, (d) => d.failed_at !== null)).toMatchObject({
        attempts: 24,
        last_status: 410,
        last_error: "HTTP 410",
        delivered_at: null,
        failed_at: expect.any(Date),
      });
      crm.answer(undefined);
      expect(await server.app.webhooks.resend(id)).toBe(true);
      await crm.waitFor(() => crm.accepted(id).length === 1);
      expect(crm.receipts.filter((r) => r.id === id).map((r) => r.status)).toEqual([410, 204]);
    } finally {
      await ctx.db.query("UPDATE public.webhook_endpoints SET enabled = false WHERE id = $1", [
        endpoint!.id,
      ]);
      await crm.stop();
    }
  });

  it("keeps endpoint secrets sealed at rest, and seals one written in plain at the next start", async () => {
    const sealed = (id: string) =>
      ctx.db
        .query<{ secret: string }>("SELECT secret FROM public.webhook_endpoints WHERE id = $1", [
          id,
        ])
        .then(([row]) => row!.secret);
    // The environment's secret is written sealed.
    expect(await sealed(ENV_ENDPOINT_ID)).not.toContain(receiver.secret.slice("whsec_".length));
    // An endpoint written in plain by hand still receives signed events, and is sealed by the
    // next instance to start.
    const crm = await startWebhookReceiver(webhookSecret());
    const [endpoint] = await ctx.db.query<{ id: string }>(
      "INSERT INTO public.webhook_endpoints (url, secret, enabled) VALUES ($1, $2, false) RETURNING id",
      [crm.url, crm.secret],
    );
    const envSealed = await sealed(ENV_ENDPOINT_ID);
    let second: ApiServer | undefined;
    try {
      second = await startApiServer(ctx.db, { env: { SMTP_URL: smtp.url, ...receiver.env } });
      expect(await sealed(endpoint!.id)).not.toContain(crm.secret.slice("whsec_".length));
      // The same environment changes nothing: the row already holds its URL and secret; a new
      // secret in the environment is written (sealed) at the next start.
      expect(await sealed(ENV_ENDPOINT_ID)).toBe(envSealed);
      const box = new SecretBox(second.app.keys.derive("webhook-endpoint-secrets"));
      const hook = second.app.config.leadWebhook!;
      const rotated = webhookSecret();
      await syncEnvEndpoint(ctx.db, box, { ...hook, secret: rotated });
      expect(openSecret(box, await sealed(ENV_ENDPOINT_ID))).toBe(rotated);
      await syncEnvEndpoint(ctx.db, box, hook);
      expect(openSecret(box, await sealed(ENV_ENDPOINT_ID))).toBe(hook.secret);
      await ctx.db.query(
        "UPDATE public.webhook_endpoints SET enabled = true, events_from = now() WHERE id = $1",
        [endpoint!.id],
      );
      await second.app.webhooks.refresh();
      const leadId = await contactLead(`sealed-${ctx.kind}@navy.example`);
      const [delivery] = (await deliveriesOf(leadId)).filter((d) => d.endpoint_id === endpoint!.id);
      await crm.waitFor(() => crm.accepted(delivery!.id).length === 1);
      expect(crm.forged).toBe(0);
    } finally {
      await ctx.db.query("UPDATE public.webhook_endpoints SET enabled = false WHERE id = $1", [
        endpoint!.id,
      ]);
      await second?.close();
      await crm.stop();
    }
  });

  it("delivers each event once with two instances on one database and a slow receiver", async () => {
    let second: ApiServer | undefined;
    // Slower than the lease (1 s): each claim is renewed while its request is in flight.
    receiver.answer(() => ({ status: 204, delayMs: 1_300 }));
    try {
      second = await startApiServer(ctx.db, {
        env: { SMTP_URL: smtp.url, ...receiver.env },
      });
      const leads: string[] = [];
      for (let i = 0; i < 6; i++)
        leads.push(await contactLead(`pair-${i}-${ctx.kind}@navy.example`));
      const ids: string[] = [];
      for (const leadId of leads)
        ids.push((await deliveryWhen(leadId, (r) => r.delivered_at !== null)).id);
      for (const id of ids) {
        expect(receiver.receipts.filter((r) => r.id === id)).toHaveLength(1);
      }
    } finally {
      receiver.answer(undefined);
      await second?.close();
    }
  }, 30_000);
});

it("reads Retry-After as seconds or as an HTTP date", () => {
  const now = Date.parse("2026-11-25T12:00:00Z");
  expect(retryAfterMs("120", now)).toBe(120_000);
  expect(retryAfterMs("Wed, 25 Nov 2026 12:00:30 GMT", now)).toBe(30_000);
  expect(retryAfterMs("Wed, 25 Nov 2026 11:00:00 GMT", now)).toBe(0);
  expect(retryAfterMs("soon", now)).toBeUndefined();
  expect(retryAfterMs(null, now)).toBeUndefined();
});
