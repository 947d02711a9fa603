// The newsletter's issues as members work them: a draft is written and changed at will; it is
// scheduled for a time (now, to send it at once), and a scheduled one can go back to a draft
// until its time comes; from then on the sender (sender.ts) owns it and nothing changes it. A
// preview is the email exactly as a subscriber receives it; a test copy goes to the member.
import type { Queryable } from "../db/database.ts";
import type { Email } from "../mail/outbox.ts";
import { enqueue } from "../mail/outbox.ts";
import { issueContent, issueCopy } from "./emails.ts";
import type { NewsletterLinks } from "./links.ts";

export type IssueStatus = "draft" | "scheduled" | "sending" | "sent";

/** What a member may write: the text of a draft, or the schedule. */
export type IssueChange = {
  subject?: string;
  body?: string;
  status?: "draft" | "scheduled";
  send_at?: Date;
};

/** The columns a member reads back after a write (the figures come with a read). */
const RETURNED = "id, subject, body, status, send_at, number, created_at, updated_at";

export type IssueRow = {
  id: string;
  subject: string;
  body: string;
  status: IssueStatus;
  send_at: Date | null;
  number: number | null;
  created_at: Date;
  updated_at: Date;
};

export async function createIssue(
  q: Queryable,
  issue: { subject: string; body: string; by: string | undefined },
): Promise<IssueRow> {
  const [row] = await q.query<IssueRow>(
    `INSERT INTO public.newsletter_issues (subject, body, created_by) VALUES ($1, $2, $3)
     RETURNING ${RETURNED}`,
    [issue.subject, issue.body, issue.by ?? null],
  );
  return row!;
}

/**
 * Changes an issue that is still the member's: a draft's text and schedule, a scheduled one's
 * return to a draft (or a new time). Undefined when there is no such issue; nothing changed and
 * "started" when its copies started going out, "scheduled" for the text of a scheduled one.
 */
export async function changeIssue(
  q: Queryable,
  id: string,
  change: IssueChange,
): Promise<IssueRow | "started" | "scheduled" | undefined> {
  const [row] = await q.query<IssueRow & { changed: boolean }>(
    `WITH changed AS (
       UPDATE public.newsletter_issues SET
         subject = COALESCE($2, subject),
         body = COALESCE($3, body),
         status = COALESCE($4, status),
         send_at = CASE WHEN $4 = 'draft' THEN NULL ELSE COALESCE($5, send_at) END,
         updated_at = now()
       WHERE id = $1 AND status IN ('draft', 'scheduled')
         -- A scheduled issue's text is what was scheduled: back to a draft first.
         AND (status = 'draft' OR ($2::text IS NULL AND $3::text IS NULL))
       RETURNING ${RETURNED}
     )
     SELECT *, true AS changed FROM changed
     UNION ALL
     SELECT ${RETURNED}, false FROM public.newsletter_issues
     WHERE id = $1 AND NOT EXISTS (SELECT 1 FROM changed)`,
    [
      id,
      change.subject ?? null,
      change.body ?? null,
      change.status ?? null,
      change.send_at ?? null,
    ],
  );
  if (!row) return undefined;
  if (!row.changed)
    return row.status === "sending" || row.status === "sent" ? "started" : "scheduled";
  const { changed: _, ...issue } = row;
  return issue;
}

/** An issue's content, for a preview or a test copy; undefined when there is none. */
async function contentOf(q: Queryable, id: string) {
  const [row] = await q.query<{ id: string; number: number | null; subject: string; body: string }>(
    `SELECT id, number, subject, body FROM public.newsletter_issues WHERE id = $1`,
    [id],
  );
  return row && issueContent(row);
}

/**
 * The email a subscriber receives, for a member's eyes (its links are those of no subscriber: they
 * lead to pages that change nothing). Undefined when there is no such issue.
 */
export async function previewIssue(
  q: Queryable,
  id: string,
  to: string,
  links: NewsletterLinks,
): Promise<Email | undefined> {
  const content = await contentOf(q, id);
  // The issue's own id stands in for the subscriber: an unsubscribe link that finds nobody.
  return content && issueCopy(content, { id, email: to }, links);
}

/** Queues a copy of the issue to the member, its subject marked as a test; false when none. */
export async function sendTestCopy(
  q: Queryable,
  id: string,
  to: string,
  links: NewsletterLinks,
): Promise<boolean> {
  const email = await previewIssue(q, id, to, links);
  if (!email) return false;
  await enqueue(q, {
    ...email,
    kind: "newsletter-test",
    subject: `[Test] ${email.subject}`,
  });
  return true;
}
