// Rows an outbox sent or gave up on are deleted KEEP_DAYS after they were queued, by every
// server (platform/retention.ts: once at start, then hourly); rows still waiting are kept however
// old, and so is everything younger. On both engines, with a real server.
import { expect, it } from "vitest";
import { startApiServer } from "../../tests/support/api-server.ts";
import { describeEachDatabase } from "../../tests/support/databases.ts";
import { waitUntil } from "../../tests/support/outbox.ts";
import { migrate } from "../db/migrate.ts";
import { KEEP_DAYS } from "./claims.ts";

describeEachDatabase("outbox expiry", (ctx) => {
  it("deletes emails and webhook events sent or failed long ago, and keeps the rest", async () => {
    // Before any server runs: one that started earlier might be deleting while these are written.
    await migrate(ctx.db);
    const tag = `expiry-${ctx.kind}-${Date.now()}`;
    const old = `now() - make_interval(days => ${KEEP_DAYS + 1})`;
    const recent = `now() - make_interval(days => ${KEEP_DAYS - 1})`;
    const later = "now() + make_interval(days => 1)";
    const email = async (label: string, created: string, state: string, at = created) => {
      const [row] = await ctx.db.query<{ id: string }>(
        `INSERT INTO mail.outbox (kind, to_address, subject, text_body, html_body, created_at, ${state})
         VALUES ('test', $1, $1, 'body', '<p>body</p>', ${created}, ${at}) RETURNING id`,
        [`${label}-${tag}@example.com`],
      );
      return row!.id;
    };
    const emails = {
      sentOld: await email("sent-old", old, "sent_at"),
      failedOld: await email("failed-old", old, "failed_at"),
      sentRecent: await email("sent-recent", recent, "sent_at"),
      // Still waiting (its next attempt tomorrow): kept, however old.
      waitingOld: await email("waiting-old", old, "next_attempt_at", later),
    };
    const [endpoint] = await ctx.db.query<{ id: string }>(
      "INSERT INTO public.webhook_endpoints (url, secret, enabled) VALUES ($1, $2, false) RETURNING id",
      [`https://crm.example/${tag}`, `whsec_${Buffer.alloc(24, 7).toString("base64")}`],
    );
    const event = async (created: string, state: string, at = created) => {
      const [row] = await ctx.db.query<{ id: string }>(
        `INSERT INTO public.webhook_deliveries (endpoint_id, lead_id, payload, created_at, ${state})
         VALUES ($1, gen_random_uuid(), '{}', ${created}, ${at}) RETURNING id`,
        [endpoint!.id],
      );
      return row!.id;
    };
    const events = {
      deliveredOld: await event(old, "delivered_at"),
      failedOld: await event(old, "failed_at"),
      deliveredRecent: await event(recent, "delivered_at"),
      // Waiting for its endpoint to be enabled again: kept.
      waitingOld: await event(old, "next_attempt_at", later),
    };
    const left = async () => ({
      emails: (
        await ctx.db.query<{ id: string }>("SELECT id FROM mail.outbox WHERE id = ANY($1)", [
          Object.values(emails),
        ])
      ).map((r) => r.id),
      events: (
        await ctx.db.query<{ id: string }>(
          "SELECT id FROM public.webhook_deliveries WHERE id = ANY($1)",
          [Object.values(events)],
        )
      ).map((r) => r.id),
    });
    expect((await left()).emails).toHaveLength(4);

    const server = await startApiServer(ctx.db);
    try {
      await waitUntil(async () => {
        const now = await left();
        return !now.emails.includes(emails.failedOld) && !now.events.includes(events.failedOld);
      }, 15_000);
      const now = await left();
      expect(now.emails.sort()).toEqual([emails.sentRecent, emails.waitingOld].sort());
      expect(now.events.sort()).toEqual([events.deliveredRecent, events.waitingOld].sort());
    } finally {
      await server.close();
    }
  });
});
