// The idle sender's one question (hasWork) against a real database: it must say yes whenever one
// of the sender's steps has something to do, or an issue would wait for nothing.
import { beforeAll, beforeEach, expect, it } from "vitest";
import { describeEachDatabase } from "../../tests/support/databases.ts";
import { migrate } from "../db/migrate.ts";
import { enqueue } from "../mail/outbox.ts";
import { hasWork, recordOutcomes, startDueIssues } from "./sender.ts";

describeEachDatabase("newsletter sender: whether it has work", (ctx) => {
  beforeAll(() => migrate(ctx.db));
  beforeEach(async () => {
    await ctx.db.query("DELETE FROM public.newsletter_issues");
    await ctx.db.query("DELETE FROM public.newsletter_subscribers");
  });

  const issue = async (status: string, sendAt: string | null, number: number | null = null) =>
    (
      await ctx.db.query<{ id: string }>(
        `INSERT INTO public.newsletter_issues (subject, body, status, send_at, number)
         VALUES ('Subject', 'Body', $1, $2::timestamptz, $3) RETURNING id`,
        [status, sendAt, number],
      )
    )[0]!.id;

  it("has none with a draft, an issue scheduled for later and a sent one", async () => {
    await issue("draft", null);
    await issue("scheduled", new Date(Date.now() + 3_600_000).toISOString());
    await issue("sent", new Date().toISOString(), 1);
    expect(await hasWork(ctx.db)).toBe(false);
  });

  it("has work while an issue is due to start, and while one is sending", async () => {
    await issue("scheduled", new Date(Date.now() - 1000).toISOString());
    expect(await hasWork(ctx.db)).toBe(true);
    expect(await startDueIssues(ctx.db)).toBe(1); // now sending
    expect(await hasWork(ctx.db)).toBe(true);
    await ctx.db.query("UPDATE public.newsletter_issues SET status = 'sent'");
    expect(await hasWork(ctx.db)).toBe(false);
  });

  it("has work while a copy's outcome is in the outbox and not yet recorded", async () => {
    const id = await issue("sent", new Date().toISOString(), 1);
    const [subscriber] = await ctx.db.query<{ id: string }>(
      `INSERT INTO public.newsletter_subscribers (email, status, confirmed_at)
       VALUES ('reader@sender.example', 'subscribed', now()) RETURNING id`,
    );
    const emailId = await enqueue(ctx.db, {
      kind: "newsletter",
      to: "reader@sender.example",
      subject: "Subject",
      text: "Body",
      html: "<p>Body</p>",
    });
    await ctx.db.query(
      "INSERT INTO public.newsletter_sends (issue_id, subscriber_id, email_id) VALUES ($1, $2, $3)",
      [id, subscriber!.id, emailId],
    );
    expect(await hasWork(ctx.db)).toBe(false); // on its way: no outcome yet
    await ctx.db.query("UPDATE mail.outbox SET sent_at = now() WHERE id = $1", [emailId]);
    expect(await hasWork(ctx.db)).toBe(true);
    expect(await recordOutcomes(ctx.db)).toBe(1);
    expect(await hasWork(ctx.db)).toBe(false);
  });
});
