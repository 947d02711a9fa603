// Admins' endpoints reach public addresses only unless the operator allows private ones
// (WEBHOOK_ALLOW_PRIVATE_ADDRESSES, on by default outside production): the ranges, the lookup
// that checks every address a name resolves to, the workspace's refusals, and an admin's endpoint
// on loopback refused at delivery while the operator's on loopback delivers.
import dns from "node:dns";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { testConfig } from "../../tests/support/app.ts";
import { describeAuthSuite } from "../../tests/support/auth-suite.ts";
import { readUntil } from "../../tests/support/poll.ts";
import { teamMember } from "../../tests/support/team.ts";
import { startWebhookReceiver } from "../../tests/support/webhook-receiver.ts";
import { ENV_ENDPOINT_ID } from "./endpoints.ts";
import { postEvent } from "./http-post.ts";
import { shownFailure } from "./webhook-worker.ts";
import { namesPrivateHost, PrivateAddressError, publicLookup } from "./public-address.ts";

const receiver = await startWebhookReceiver();
afterAll(() => receiver.stop());

describe("public addresses", () => {
  it("knows a private host by its name when the name is an address or localhost", () => {
    for (const url of [
      "http://127.0.0.1:8080/",
      "https://localhost/",
      "https://LOCALHOST./",
      "https://crm.localhost/",
      "https://[::1]/",
      "https://[::ffff:192.168.0.1]/",
      "https://2130706433/", // 127.0.0.1 spelt as one number
      "https://0x7f.1/",
    ])
      expect([url, namesPrivateHost(new URL(url))]).toEqual([url, true]);
    for (const url of ["https://crm.example.com/hook", "https://93.184.215.14/"])
      expect([url, namesPrivateHost(new URL(url))]).toEqual([url, false]);
  });

  it("fails a lookup whose name resolves to a private address, as a single address or all", async () => {
    const lookup = (all: boolean) =>
      new Promise<unknown>((resolve) => publicLookup("localhost", { all }, (err) => resolve(err)));
    for (const all of [false, true]) {
      const err = await lookup(all);
      expect(err).toBeInstanceOf(PrivateAddressError);
      expect(String(err)).toContain(
        "localhost resolves to an address that is not public (WEBHOOK_ALLOW_PRIVATE_ADDRESSES)",
      );
      expect(String(err)).not.toMatch(/127\.0\.0\.1|::1/);
    }
    // The same name through the plain lookup resolves: the refusal is the check's.
    expect((await dns.promises.lookup("localhost")).address).toMatch(/^(127\.|::1$)/);
  });

  it("refuses to connect to a private host, and connects to it where allowed", async () => {
    const post = (publicOnly: boolean) =>
      postEvent(receiver.url, {
        headers: { "content-type": "application/json" },
        body: "{}",
        signal: AbortSignal.timeout(5000),
        publicOnly,
      });
    await expect(post(true)).rejects.toThrow("127.0.0.1 is not a public address");
    // The receiver answers an unsigned event with a refusal: it was reached.
    expect((await post(false)).status).toBe(401);
  });

  it("tells the workspace no address, and the same for a name that resolves privately as for one that does not resolve", async () => {
    const failure = (p: Promise<unknown>) =>
      p.then(
        () => expect.unreachable("it connected"),
        (err: unknown) => err,
      );
    const post = (url: string, publicOnly: boolean) =>
      postEvent(url, {
        headers: {},
        body: "{}",
        signal: AbortSignal.timeout(5000),
        publicOnly,
      });
    const privateName = await failure(
      new Promise((_, reject) => publicLookup("localhost", {}, (err) => reject(err))),
    );
    const noName = await failure(post("https://no-such-host.invalid/hook", true));
    const refused = await failure(post("http://127.0.0.1:9/hook", false));
    expect(shownFailure(privateName)).toBe("the endpoint has no address this server may reach");
    expect(shownFailure(noName)).toBe(shownFailure(privateName));
    expect(shownFailure(refused)).toBe("could not connect to the endpoint");
    // A private address written in the URL itself is said as such (the URL shows it anyway).
    expect(shownFailure(await failure(post("https://10.1.2.3/hook", true)))).toBe(
      "10.1.2.3 is not a public address (WEBHOOK_ALLOW_PRIVATE_ADDRESSES)",
    );
  });

  it("allows private addresses by default outside production only", () => {
    expect(testConfig({ NODE_ENV: "production" }).webhookAllowPrivateAddresses).toBe(false);
    expect(testConfig({ NODE_ENV: "development" }).webhookAllowPrivateAddresses).toBe(true);
    expect(
      testConfig({ NODE_ENV: "development", WEBHOOK_ALLOW_PRIVATE_ADDRESSES: "false" })
        .webhookAllowPrivateAddresses,
    ).toBe(false);
  });
});

describeAuthSuite(
  "webhooks: admins' endpoints on public addresses only",
  (suite) => {
    const { server, client, ctx } = suite;
    let admin: Awaited<ReturnType<typeof teamMember>>["supabase"];
    beforeAll(async () => {
      ({ supabase: admin } = await teamMember(suite, "public-only", { aal2: true, role: "admin" }));
    });

    it("refuses a workspace endpoint on a private host, added or changed", async () => {
      const count = async () =>
        (
          await ctx.db.query<{ n: number }>(
            "SELECT count(*)::int AS n FROM public.webhook_endpoints",
          )
        )[0]!.n;
      const before = await count();
      for (const url of [
        receiver.url,
        "https://localhost/hook",
        "https://10.1.2.3/hook",
        "https://169.254.169.254/latest/meta-data",
        "https://[::1]/hook",
        "https://[::ffff:192.168.1.1]/hook",
      ]) {
        const { error, status } = await admin.from("webhook_endpoints").insert({ url });
        expect([url, status, error]).toEqual([
          url,
          400,
          expect.objectContaining({
            code: "23514",
            details: "url must be an https:// URL of a public host",
          }),
        ]);
      }
      expect(await count()).toBe(before);

      const added = await admin
        .from("webhook_endpoints")
        .insert({ url: "https://crm.example.com/revwise" })
        .select()
        .single();
      expect(added.error).toBeNull();
      const changed = await admin
        .from("webhook_endpoints")
        .update({ url: "https://192.168.0.10/revwise" })
        .eq("id", (added.data as { id: string }).id);
      expect(changed.error, JSON.stringify(changed.error)).toMatchObject({ code: "23514" });
      const [row] = await ctx.db.query<{ url: string }>(
        "SELECT url FROM public.webhook_endpoints WHERE id = $1",
        [(added.data as { id: string }).id],
      );
      expect(row!.url).toBe("https://crm.example.com/revwise");
    });

    it("sends nothing to an admin's endpoint on loopback, and the operator's on loopback still delivers", async () => {
      // An endpoint made while private addresses were allowed, then the setting turned off.
      const own = await server.app.webhooks.add({
        // The receiver's own secret: had the event gone, it would be among the verified receipts.
        url: `${receiver.url}?admin`,
        secret: receiver.secret,
        description: "made when allowed",
        by: undefined,
      });
      await server.app.webhooks.refresh();
      // Its events_from comes (a few seconds after it was made) without waiting for it.
      await ctx.db.query("UPDATE public.webhook_endpoints SET events_from = now() WHERE id = $1", [
        own.id,
      ]);
      const email = `private-${ctx.kind}-${Date.now()}@crm.example`;
      expect((await client().from("demo_requests").insert({ email })).error).toBeNull();
      const deliveries = await readUntil(
        () =>
          ctx.db.query<{
            id: string;
            endpoint_id: string;
            last_error: string | null;
            delivered_at: Date | null;
          }>(
            `SELECT d.id, d.endpoint_id, d.last_error, d.delivered_at
             FROM public.webhook_deliveries d JOIN public.demo_requests l ON l.id = d.lead_id
             WHERE l.email = $1`,
            [email],
          ),
        (rows) =>
          rows.some((d) => d.endpoint_id === own.id && d.last_error !== null) &&
          rows.some((d) => d.endpoint_id === ENV_ENDPOINT_ID && d.delivered_at !== null),
      );
      const refused = deliveries.find((d) => d.endpoint_id === own.id)!;
      const operator = deliveries.find((d) => d.endpoint_id === ENV_ENDPOINT_ID)!;
      expect(refused.last_error).toBe(
        "127.0.0.1 is not a public address (WEBHOOK_ALLOW_PRIVATE_ADDRESSES)",
      );
      expect(refused.delivered_at).toBeNull();
      // The attempt ended before connecting: the receiver never saw that delivery.
      expect(receiver.receipts.filter((r) => r.id === refused.id)).toEqual([]);
      expect(receiver.accepted(operator.id)).toHaveLength(1);
    });
  },
  { WEBHOOK_ALLOW_PRIVATE_ADDRESSES: "false", ...receiver.env },
);
