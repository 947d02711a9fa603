// The newsletter's issues through supabase-js as the workspace writes them, on both engines (the
// sender's row locks and its rate are SQL): a member composes, previews and test-sends an issue,
// schedules it now; the sender queues one copy per subscribed address through the outbox to the
// real SMTP server, each with its one-click unsubscribe; the archive shows it; the issue's
// figures count what was sent, what bounced (the provider's authenticated notification) and who
// left through its link; subscribers are unsubscribed and deleted by the team.
import type { SupabaseClient } from "@supabase/supabase-js";
import type { ParsedMail } from "mailparser";
import { beforeAll, expect, it } from "vitest";
import { describeAuthSuiteEachDatabase } from "../../tests/support/auth-suite.ts";
import { newsletterLink } from "../../tests/support/newsletter.ts";
import { readUntil } from "../../tests/support/poll.ts";
import { addressOf } from "../../tests/support/smtp.ts";
import { teamMember } from "../../tests/support/team.ts";
import { PROVIDER_EVENTS_PATH } from "./provider-events.ts";

const EVENTS_SECRET = "a-mail-provider-secret-of-32-characters-or-more";

/** A header field as the message carried it (mailparser reshapes the List-* fields). */
const header = (mail: ParsedMail, name: string) =>
  mail.headerLines
    .find((h) => h.key === name.toLowerCase())
    ?.line.slice(name.length + 1)
    .trim();

type Figures = {
  status: string;
  number: number | null;
  queued: number;
  sent: number;
  delivered: number;
  failed: number;
  unsubscribed: number;
};

describeAuthSuiteEachDatabase(
  "newsletter issues",
  (suite) => {
    const { server, smtp, ctx, client } = suite;
    let member: SupabaseClient;
    let memberEmail: string;
    let aal1: SupabaseClient;

    beforeAll(async () => {
      ({ supabase: member, email: memberEmail } = await teamMember(suite, "nl-member", {
        aal2: true,
      }));
      ({ supabase: aal1 } = await teamMember(suite, "nl-aal1", { aal2: false }));
    });

    /** Subscribers in each status, straight into the table (the opt-in has its own tests). */
    async function subscribers(domain: string, status: string, n: number) {
      const emails = Array.from({ length: n }, (_, i) => `${status}${i}@${domain}`);
      for (const email of emails)
        await ctx.db.query(
          `INSERT INTO public.newsletter_subscribers (email, status, confirmed_at)
           VALUES ($1, $2, CASE WHEN $2 = 'pending' THEN NULL ELSE now() END)`,
          [email, status],
        );
      return emails;
    }

    const figures = async (id: string) =>
      (
        await member
          .from("newsletter_issues")
          .select("status, number, queued, sent, delivered, failed, unsubscribed")
          .eq("id", id)
          .single()
      ).data as Figures;

    const providerEvent = (body: unknown, auth = `Bearer ${EVENTS_SECRET}`) =>
      fetch(`${server.url}${PROVIDER_EVENTS_PATH}`, {
        method: "POST",
        headers: { "content-type": "application/json", authorization: auth },
        body: JSON.stringify(body),
      });

    it("composes, previews, test-sends and sends an issue to each subscribed address once", async () => {
      const domain = `issue-${Date.now().toString(36)}.example`;
      const subscribed = await subscribers(domain, "subscribed", 5);
      const [pending] = await subscribers(domain, "pending", 1);
      const [left] = await subscribers(domain, "unsubscribed", 1);

      const body = `## What changed\n\nCalls are **summarised** in a minute. [Read more](https://revwise.example/blog)\n\n<script>alert(1)</script> [bad](javascript:alert)`;
      // Only a member on aal2 writes an issue.
      const refused = await aal1.from("newsletter_issues").insert({ subject: "No", body: "No" });
      expect([refused.status, refused.error?.code]).toEqual([403, "42501"]);
      const anonymous = await client()
        .from("newsletter_issues")
        .insert({ subject: "No", body: "No" });
      expect([anonymous.status, anonymous.error?.code]).toEqual([401, "42501"]);
      const empty = await member.from("newsletter_issues").insert({ subject: " ", body });
      expect([empty.status, empty.error?.code]).toEqual([400, "23514"]);

      const created = await member
        .from("newsletter_issues")
        .insert({ subject: "November at Revwise", body: "draft" })
        .select()
        .single();
      expect(created.error).toBeNull();
      const id = (created.data as { id: string; status: string }).id;
      expect((created.data as { status: string }).status).toBe("draft");
      const edited = await member.from("newsletter_issues").update({ body }).eq("id", id);
      expect(edited.status).toBe(204);

      // The preview is the email itself: the Markdown as HTML, raw HTML and script links as text.
      const preview = await member.rpc("preview_issue", { issue_id: id });
      const shown = preview.data as { subject: string; html: string };
      expect(shown.subject).toBe("November at Revwise");
      expect(shown.html).toContain("<strong>summarised</strong>");
      expect(shown.html).toContain('<a href="https://revwise.example/blog"');
      expect(shown.html).toContain("&lt;script&gt;alert(1)&lt;/script&gt;");
      expect(shown.html).not.toMatch(/href="javascript/i);
      expect(shown.html).toContain("Unsubscribe from the Revwise newsletter");

      expect((await member.rpc("send_test_issue", { issue_id: id })).data).toBe(true);
      const test = await smtp.waitFor(
        (m) => addressOf(m) === memberEmail && m.subject === "[Test] November at Revwise",
      );
      expect(test.html).toContain("<strong>summarised</strong>");
      // A test copy goes to the member alone.
      expect(smtp.messages.filter((m) => addressOf(m).endsWith(`@${domain}`))).toHaveLength(0);

      // Scheduled for now: the sender starts it, numbers it and sends it.
      const scheduled = await member
        .from("newsletter_issues")
        .update({ status: "scheduled", send_at: new Date().toISOString() })
        .eq("id", id);
      expect(scheduled.status).toBe(204);
      await smtp.waitForCount(5, (m) => addressOf(m).endsWith(`@${domain}`), 20_000);
      const done = await readUntil(
        () => figures(id),
        (f) => f.status === "sent" && f.sent >= 5,
      );
      expect(done).toMatchObject({ queued: done.sent, delivered: done.sent, failed: 0 });
      expect(done.number).toBeGreaterThanOrEqual(1);
      const copies = smtp.messages.filter((m) => addressOf(m).endsWith(`@${domain}`));
      expect(copies.map(addressOf).sort()).toEqual([...subscribed].sort());
      expect(copies.map(addressOf)).not.toContain(pending);
      expect(copies.map(addressOf)).not.toContain(left);

      // Each copy: one-click unsubscribe in its header fields and at its foot, the issue online.
      const copy = copies[0]!;
      expect(header(copy, "List-Unsubscribe-Post")).toBe("List-Unsubscribe=One-Click");
      const listed = /^<(.+)>$/.exec(header(copy, "List-Unsubscribe") ?? "")?.[1];
      expect(listed).toBe(newsletterLink(copy, "/newsletter/unsubscribe") + `&issue=${id}`);
      expect(copy.html).toContain(`href="${listed!.replace(/&/g, "&amp;")}"`);
      expect(copy.text).toContain(`${server.url}/newsletter/${done.number}`);

      // Sent, it changes no more.
      const late = await member.from("newsletter_issues").update({ body: "changed" }).eq("id", id);
      expect([late.status, late.error?.code]).toEqual([409, "55000"]);

      // One subscriber leaves by the copy's one-click link: the issue counts it.
      const oneClick = await fetch(listed!, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: "List-Unsubscribe=One-Click",
      });
      expect(oneClick.status).toBe(200);
      // The provider reports another copy bounced: its address is turned off, the copy failed.
      const bounced = copies[1]!;
      const bounce = {
        type: "bounce",
        email: addressOf(bounced),
        message_id: bounced.messageId,
      };
      expect((await providerEvent(bounce, "Bearer wrong")).status).toBe(401);
      expect((await providerEvent({ type: "bounce" })).status).toBe(400);
      expect((await providerEvent(bounce)).status).toBe(204);
      const basic = `Basic ${Buffer.from(`provider:${EVENTS_SECRET}`).toString("base64")}`;
      expect(
        (await providerEvent([{ type: "complaint", email: addressOf(copies[2]!) }], basic)).status,
      ).toBe(204);
      // An address nobody subscribed is answered the same.
      expect((await providerEvent({ type: "complaint", email: `nobody@${domain}` })).status).toBe(
        204,
      );
      expect(await figures(id)).toMatchObject({
        sent: done.sent,
        delivered: done.sent - 1,
        failed: 1,
        unsubscribed: 1,
      });
      const reasons = await ctx.db.query<{ email: string; unsubscribe_reason: string }>(
        `SELECT email, unsubscribe_reason FROM public.newsletter_subscribers
         WHERE email = ANY($1) AND status = 'unsubscribed' ORDER BY email`,
        [copies.slice(0, 3).map(addressOf)],
      );
      expect(Object.fromEntries(reasons.map((r) => [r.email, r.unsubscribe_reason]))).toEqual({
        [addressOf(copies[0]!)]: "unsubscribed",
        [addressOf(copies[1]!)]: "bounced",
        [addressOf(copies[2]!)]: "complained",
      });

      // The archive lists it and shows it, cached and revalidated by its ETag.
      const archive = await fetch(`${server.url}/newsletter`);
      expect(archive.status).toBe(200);
      expect(archive.headers.get("cache-control")).toMatch(/public, max-age=60/);
      expect(await archive.text()).toContain(`href="/newsletter/${done.number}"`);
      const page = await fetch(`${server.url}/newsletter/${done.number}`);
      const html = await page.text();
      expect([page.status, html.includes("<strong>summarised</strong>")]).toEqual([200, true]);
      expect(html).not.toContain("<script>");
      const again = await fetch(`${server.url}/newsletter/${done.number}`, {
        headers: { "if-none-match": page.headers.get("etag")! },
      });
      expect(again.status).toBe(304);
      expect((await fetch(`${server.url}/newsletter/99999`)).status).toBe(404);
    });

    it("keeps a draft and a scheduled issue out of the archive; a scheduled one goes back to a draft", async () => {
      const created = await member
        .from("newsletter_issues")
        .insert({ subject: "Next month", body: "Soon." })
        .select("id")
        .single();
      const id = (created.data as { id: string }).id;
      const later = new Date(Date.now() + 24 * 3600 * 1000).toISOString();
      expect(
        (
          await member
            .from("newsletter_issues")
            .update({ status: "scheduled", send_at: later })
            .eq("id", id)
        ).status,
      ).toBe(204);
      // A scheduled issue's text is what was scheduled.
      const text = await member.from("newsletter_issues").update({ body: "x" }).eq("id", id);
      expect([text.status, text.error?.code]).toEqual([409, "55000"]);
      const back = await member.from("newsletter_issues").update({ status: "draft" }).eq("id", id);
      expect(back.status).toBe(204);
      expect(await figures(id)).toMatchObject({ status: "draft", number: null, queued: 0 });
      expect(await (await fetch(`${server.url}/newsletter`)).text()).not.toContain("Next month");
      // Without a filter on the id, nothing changes.
      const all = await member.from("newsletter_issues").update({ body: "x" }).neq("id", id);
      expect([all.status, all.error?.code]).toEqual([400, "21000"]);
    });

    it("lets the team unsubscribe and delete an address, each in the audit log", async () => {
      const [stays, goes] = (await subscribers(
        `team-${Date.now().toString(36)}.example`,
        "subscribed",
        2,
      )) as [string, string];
      const ids = await ctx.db.query<{ id: string; email: string }>(
        "SELECT id, email FROM public.newsletter_subscribers WHERE email IN ($1, $2)",
        [stays, goes],
      );
      const idOf = (email: string) => ids.find((r) => r.email === email)!.id;
      const found = await member.from("subscribers").select("email").ilike("email", `%${stays}%`);
      expect(found.data).toEqual([{ email: stays }]);
      expect(
        (await aal1.rpc("unsubscribe_subscriber", { subscriber_id: idOf(stays) })).status,
      ).toBe(403);
      expect(
        (await member.rpc("unsubscribe_subscriber", { subscriber_id: idOf(stays) })).data,
      ).toBe(true);
      expect(
        (await member.rpc("unsubscribe_subscriber", { subscriber_id: idOf(stays) })).data,
      ).toBe(false);
      expect((await member.rpc("delete_subscriber", { subscriber_id: idOf(goes) })).data).toBe(
        true,
      );
      const rows = await ctx.db.query<{
        email: string;
        status: string;
        unsubscribe_reason: string;
      }>(
        "SELECT email, status, unsubscribe_reason FROM public.newsletter_subscribers WHERE email IN ($1, $2)",
        [stays, goes],
      );
      expect(rows).toEqual([{ email: stays, status: "unsubscribed", unsubscribe_reason: "team" }]);
      const logged = await ctx.db.query<{ action: string }>(
        `SELECT payload->>'action' AS action FROM auth.audit_log_entries
         WHERE payload->'traits'->>'subscriber_id' = ANY($1) ORDER BY created_at`,
        [[idOf(stays), idOf(goes)]],
      );
      expect(logged.map((r) => r.action)).toEqual([
        "newsletter_subscriber_unsubscribed",
        "newsletter_subscriber_deleted",
      ]);
    });
  },
  { MAIL_EVENTS_SECRET: EVENTS_SECRET, NEWSLETTER_SEND_RATE: "50" },
);
