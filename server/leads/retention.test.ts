// What the privacy policy keeps for a limited time is deleted by every server (once at start, then
// hourly): a lead LEAD_KEEP_MONTHS after the last contact (its own time or the team's last change
// of its status), with its status and history; the dev mailbox's text messages after
// TEXT_KEEP_DAYS. Newsletter subscriptions stay however old. On both engines, with a real server.
import { expect, it } from "vitest";
import { startApiServer } from "../../tests/support/api-server.ts";
import { describeEachDatabase } from "../../tests/support/databases.ts";
import { waitUntil } from "../../tests/support/poll.ts";
import { migrate } from "../db/migrate.ts";
import { TEXT_KEEP_DAYS } from "../mail/text-messages.ts";
import { LEAD_KEEP_MONTHS } from "./retention.ts";

describeEachDatabase("retention", (ctx) => {
  it("deletes leads out of contact for too long with their status and history, and keeps the rest", async () => {
    // Before any server runs: one that started earlier might be deleting while these are written.
    await migrate(ctx.db);
    const tag = `retention-${ctx.kind}-${Date.now()}`;
    const before = `now() - make_interval(months => ${LEAD_KEEP_MONTHS}, days => 1)`;
    const within = `now() - make_interval(months => ${LEAD_KEEP_MONTHS}) + interval '1 day'`;
    const insert = async (table: string, columns: Record<string, string>, created: string) => {
      const names = Object.keys(columns);
      const [row] = await ctx.db.query<{ id: string }>(
        `INSERT INTO public.${table} (${names.join(", ")}, created_at)
         VALUES (${names.map((_, i) => `$${i + 1}`).join(", ")}, ${created}) RETURNING id`,
        Object.values(columns),
      );
      return row!.id;
    };
    const email = (label: string) => `${label}-${tag}@example.com`;
    const forms = {
      watch_demo: (label: string, at: string) =>
        insert("demo_requests", { email: email(label) }, at),
      request_access: (label: string, at: string) =>
        insert(
          "access_requests",
          {
            first_name: "Ada",
            last_name: "Lovelace",
            email: email(label),
            company_name: "Analytical",
            company_size: "1-10",
            department: "Sales",
          },
          at,
        ),
      contact: (label: string, at: string) =>
        insert(
          "contact_messages",
          { name: "Ada", email: email(label), phone: "+1 206 555 0100", message: "Hello" },
          at,
        ),
      request_demo: (label: string, at: string) =>
        insert(
          "demo_form_requests",
          {
            name: "Ada",
            email: email(label),
            phone: "+1 206 555 0100",
            company: "Analytical",
            position: "CRO",
          },
          at,
        ),
    };
    const expired: Record<string, string> = {};
    const kept: Record<string, string> = {};
    for (const [kind, store] of Object.entries(forms)) {
      expired[kind] = await store(`old-${kind}`, before);
      kept[kind] = await store(`recent-${kind}`, within);
    }
    // Old, but the team changed its status within the period: the last contact is recent.
    const touched = await forms.request_access("touched", before);
    kept.touched = touched;
    // An old Watch Demo request asked for again within the period: its last contact is recent.
    kept.renewed = await forms.watch_demo("renewed", before);
    await ctx.db.query(
      `UPDATE public.demo_requests SET last_requested_at = ${within} WHERE id = $1`,
      [kept.renewed],
    );
    // A status set at `at`; the database appends the change to the history.
    const state = (kind: string, id: string, at: string) =>
      ctx.db.query(
        `INSERT INTO public.lead_states (kind, lead_id, status, updated_at)
         VALUES ($1, $2, 'contacted', ${at})`,
        [kind, id],
      );
    const note = (kind: string, id: string, at: string) =>
      ctx.db.query(
        `INSERT INTO public.lead_notes (kind, lead_id, type, body, created_at)
         VALUES ($1, $2, 'call', 'Called back', ${at})`,
        [kind, id],
      );
    await state("request_access", touched, within);
    await state("contact", expired.contact!, before);
    await note("contact", expired.contact!, before);
    // Old, but a call was logged within the period: the last contact is recent.
    kept.noted = await forms.contact("noted", before);
    await note("contact", kept.noted, within);
    // A subscription lasts until the reader unsubscribes, however old.
    const [subscriber] = await ctx.db.query<{ id: string }>(
      `INSERT INTO public.newsletter_subscribers (email, status, confirmed_at, created_at, requested_at)
       VALUES ($1, 'subscribed', ${before}, ${before}, ${before}) RETURNING id`,
      [email("reader")],
    );
    const text = async (label: string, days: number) => {
      const [row] = await ctx.db.query<{ id: string }>(
        `INSERT INTO mail.text_messages (kind, to_phone, channel, body, created_at)
         VALUES ('test', $1, 'sms', 'Your code is 123456', now() - make_interval(days => $2))
         RETURNING id`,
        [`1555${label}${Date.now() % 1_000_000}`, days],
      );
      return row!.id;
    };
    const texts = { old: await text("1", TEXT_KEEP_DAYS + 1), recent: await text("2", 1) };

    const left = async () => {
      const ids = [...Object.values(expired), ...Object.values(kept), subscriber!.id];
      const [leads, states, changes, notes, messages] = await Promise.all([
        ctx.db.query<{ id: string }>("SELECT id FROM public.leads WHERE id = ANY($1)", [ids]),
        ctx.db.query<{ id: string }>(
          "SELECT lead_id AS id FROM public.lead_states WHERE lead_id = ANY($1)",
          [ids],
        ),
        ctx.db.query<{ id: string }>(
          "SELECT lead_id AS id FROM public.lead_state_changes WHERE lead_id = ANY($1)",
          [ids],
        ),
        ctx.db.query<{ id: string }>(
          "SELECT lead_id AS id FROM public.lead_notes WHERE lead_id = ANY($1)",
          [ids],
        ),
        ctx.db.query<{ id: string }>("SELECT id FROM mail.text_messages WHERE id = ANY($1)", [
          Object.values(texts),
        ]),
      ]);
      const sorted = (rows: { id: string }[]) => rows.map((r) => r.id).sort();
      return {
        leads: sorted(leads),
        states: sorted(states),
        changes: sorted(changes),
        notes: sorted(notes),
        texts: sorted(messages),
      };
    };
    expect((await left()).leads).toHaveLength(12);

    const server = await startApiServer(ctx.db);
    try {
      await waitUntil(async () => {
        const now = await left();
        return now.leads.length === 8 && now.texts.length === 1;
      }, 15_000);
      expect(await left()).toEqual({
        leads: [...Object.values(kept), subscriber!.id].sort(),
        states: [touched],
        changes: [touched],
        notes: [kept.noted],
        texts: [texts.recent],
      });
    } finally {
      await server.close();
    }
  });
});
