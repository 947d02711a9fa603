// Sends the newsletter's issues through the outbox, from every instance at once, each subscribed
// address once per issue, at most NEWSLETTER_SEND_RATE copies a second across all instances:
// - a scheduled issue whose time came starts sending (it gets its archive number);
// - one instance at a time holds a sending issue's row (FOR UPDATE SKIP LOCKED) and, in that
//   transaction, queues the copies of the next subscribers after the issue's cursor (by id),
//   records each in newsletter_sends (one row per issue and subscriber: its primary key refuses a
//   second) and moves the cursor; a process killed before the commit queued nothing of it;
// - the rate is a token bucket on the issue's row: `paced_at` is the instant up to which the
//   copies queued used the rate, never more than a second behind now (no burst after a pause),
//   and no more than two seconds of copies wait in the outbox at once, so a slow or absent SMTP
//   server does not pile up copies that would then go out faster than the rate;
// - the outbox delivers the copies (decision 0014) and the sender copies each one's outcome into
//   newsletter_sends, where the issue's figures are read.
// An issue is "sent" once its last copy is queued.
import crypto from "node:crypto";
import { isUniqueViolation, type Database, type Queryable } from "../db/database.ts";
import { emailsParameter, queueEmailsStatement } from "../mail/outbox.ts";
import { issueContent, issueCopy } from "./emails.ts";
import type { NewsletterLinks } from "./links.ts";

/** Seconds of copies the bucket gives at once after a pause, and the most waiting in the outbox. */
const BURST_SECONDS = 1;
const WAITING_SECONDS = 2;

/**
 * Whether the sender has anything to do: an issue sending or due to start, or a copy whose outcome
 * the outbox has and newsletter_sends has not. One cheap statement (each part through a partial
 * index holding only such rows), asked instead of the three steps while the sender is idle.
 */
export async function hasWork(db: Queryable): Promise<boolean> {
  const [row] = await db.query<{ busy: boolean }>(
    `SELECT /* whole table: the partial indexes of sending issues and of copies without an
         outcome, read whole */ EXISTS (
         SELECT 1 FROM public.newsletter_issues
         WHERE status = 'sending' OR (status = 'scheduled' AND send_at <= now())
       ) OR EXISTS (
         SELECT 1 FROM public.newsletter_sends s JOIN mail.outbox o ON o.id = s.email_id
         WHERE s.sent_at IS NULL AND s.failed_at IS NULL
           AND (o.sent_at IS NOT NULL OR o.failed_at IS NOT NULL)
       ) AS busy`,
  );
  return row!.busy;
}

/** Starts the scheduled issues whose time came, one at a time; how many. */
export async function startDueIssues(db: Queryable): Promise<number> {
  let started = 0;
  for (;;) {
    try {
      const rows = await db.query(
        `WITH due AS (
           SELECT id FROM public.newsletter_issues
           WHERE status = 'scheduled' AND send_at <= now()
           ORDER BY send_at LIMIT 1 FOR UPDATE SKIP LOCKED
         )
         UPDATE public.newsletter_issues i
         SET status = 'sending', started_at = now(), paced_at = now(), updated_at = now(),
           number = (SELECT COALESCE(max(number), 0) + 1 FROM public.newsletter_issues)
         FROM due WHERE i.id = due.id RETURNING i.id`,
      );
      if (rows.length === 0) return started;
      started += 1;
    } catch (err) {
      // Another instance numbered an issue at the same moment: the next round numbers this one.
      if (isUniqueViolation(err)) return started;
      throw err;
    }
  }
}

/** Copies the outbox's outcome of the copies that have one into newsletter_sends; how many. */
export async function recordOutcomes(db: Queryable): Promise<number> {
  const rows = await db.query(
    `UPDATE /* whole table: the partial index of copies without an outcome, read whole */
       public.newsletter_sends s SET sent_at = o.sent_at, failed_at = o.failed_at
     FROM mail.outbox o
     WHERE s.sent_at IS NULL AND s.failed_at IS NULL AND o.id = s.email_id
       AND (o.sent_at IS NOT NULL OR o.failed_at IS NOT NULL)
     RETURNING s.email_id`,
  );
  return rows.length;
}

type SendingIssue = {
  id: string;
  number: number;
  subject: string;
  body: string;
  queued_up_to: string | null;
  /** How many copies the bucket allows now, and the instant the bucket counts from. */
  allowance: number;
  bucket_from: Date;
  waiting: number;
};

/**
 * Queues the next copies of one sending issue, as many as the rate allows now; how many (0 when
 * none is allowed yet), or undefined when no issue is sending (or another instance holds each).
 */
export async function queueNextCopies(
  db: Database,
  opts: { rate: number; links: NewsletterLinks },
): Promise<number | undefined> {
  const { rate, links } = opts;
  return db.transaction(async (tx) => {
    const [issue] = await tx.query<SendingIssue>(
      `WITH issue AS (
         SELECT id, number, subject, body, queued_up_to,
           greatest(paced_at, now() - make_interval(secs => $2)) AS bucket_from
         FROM public.newsletter_issues WHERE status = 'sending'
         ORDER BY started_at LIMIT 1 FOR UPDATE SKIP LOCKED
       )
       SELECT issue.*,
         floor(EXTRACT(EPOCH FROM now() - bucket_from) * $1)::int AS allowance,
         (SELECT count(*)::int FROM public.newsletter_sends s
          WHERE s.issue_id = issue.id AND s.sent_at IS NULL AND s.failed_at IS NULL) AS waiting
       FROM issue`,
      [rate, BURST_SECONDS],
    );
    if (!issue) return undefined;
    const room = Math.ceil(rate * WAITING_SECONDS) - issue.waiting;
    const take = Math.min(issue.allowance, room);
    if (take <= 0) return 0;
    const subscribers = await tx.query<{ id: string; email: string }>(
      `SELECT id, email FROM public.newsletter_subscribers
       WHERE status = 'subscribed' AND id > COALESCE($1::uuid, '00000000-0000-0000-0000-000000000000')
       ORDER BY id LIMIT $2`,
      [issue.queued_up_to, take],
    );
    if (subscribers.length > 0) {
      const content = issueContent(issue);
      const copies = subscribers.map((s) => ({ subscriber: s.id, email: crypto.randomUUIDv7() }));
      await tx.query(
        `WITH queued AS (${queueEmailsStatement(1)})
         INSERT INTO public.newsletter_sends (issue_id, subscriber_id, email_id)
         SELECT $2, c.subscriber, c.email
         FROM jsonb_to_recordset($3::jsonb) AS c(subscriber uuid, email uuid)`,
        [
          emailsParameter(
            subscribers.map((s, i) => issueCopy(content, s, links, copies[i]!.email)),
          ),
          issue.id,
          JSON.stringify(copies),
        ],
      );
    }
    const finished = subscribers.length < take;
    await tx.query(
      `UPDATE public.newsletter_issues
       SET queued_up_to = COALESCE($2, queued_up_to),
         paced_at = $3::timestamptz + make_interval(secs => $4::float8 / $5),
         status = CASE WHEN $6::boolean THEN 'sent' ELSE status END,
         sent_at = CASE WHEN $6::boolean THEN now() END,
         updated_at = now()
       WHERE id = $1`,
      [
        issue.id,
        subscribers.at(-1)?.id ?? null,
        issue.bucket_from,
        subscribers.length,
        rate,
        finished,
      ],
    );
    return subscribers.length;
  });
}
