// The outbox: emails are written here, in the same transaction or statement as whatever caused
// them, and delivered later by the worker (delivery-worker.ts). This module is the only writer of
// new emails into mail.outbox.
import type { Queryable } from "../db/database.ts";

export type Email = {
  /** The outbox row's id, when the caller records it elsewhere too (a newsletter copy); else made. */
  id?: string;
  kind: string;
  to: string;
  subject: string;
  text: string;
  html: string;
  replyTo?: string;
  /** Extra header fields (a newsletter's List-Unsubscribe); never Reply-To or an address field. */
  headers?: Record<string, string>;
};

export type OutboxRow = {
  id: string;
  kind: string;
  to_address: string;
  subject: string;
  text_body: string;
  html_body: string;
  reply_to: string | null;
  created_at: Date;
  attempts: number;
  next_attempt_at: Date;
  sent_at: Date | null;
  failed_at: Date | null;
  last_error: string | null;
  lead_id: string | null;
  headers: Record<string, string>;
};

const COLUMNS = "kind, to_address, subject, text_body, html_body, reply_to, headers";

export async function enqueue(q: Queryable, email: Email): Promise<string> {
  const [row] = await q.query<{ id: string }>(
    `INSERT INTO mail.outbox (${COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING id`,
    [
      email.kind,
      email.to,
      email.subject,
      email.text,
      email.html,
      email.replyTo ?? null,
      JSON.stringify(email.headers ?? {}),
    ],
  );
  return row!.id;
}

/**
 * An INSERT that queues the emails given as parameter `$emailsParam` (see emailsParameter), for a
 * data-modifying WITH of one statement with whatever causes them (the lead store's): atomic on
 * its own, with no transaction and no second round trip to the database, and inside the caller's
 * transaction when there is one. `leadFrom` names the WITH query of the lead that caused them:
 * each email then records the lead's id.
 */
export function queueEmailsStatement(emailsParam: number, leadFrom?: string): string {
  const lead = leadFrom ? `(SELECT id FROM ${leadFrom})` : "NULL::uuid";
  return `INSERT INTO mail.outbox (id, ${COLUMNS}, lead_id)
       SELECT COALESCE(m.id, gen_random_uuid()), ${COLUMNS}, ${lead}
       FROM jsonb_to_recordset($${emailsParam}::jsonb)
         AS m(id uuid, kind text, to_address text, subject text, text_body text, html_body text, reply_to text, headers jsonb)`;
}

/** The value of queueEmailsStatement's emails parameter. */
export function emailsParameter(emails: Email[]): string {
  return JSON.stringify(
    emails.map((e) => ({
      id: e.id ?? null,
      kind: e.kind,
      to_address: e.to,
      subject: e.subject,
      text_body: e.text,
      html_body: e.html,
      reply_to: e.replyTo ?? null,
      headers: e.headers ?? {},
    })),
  );
}

/**
 * Makes a failed email due again (the team's "resend"): attempts start over, the last error stays
 * until the next attempt. Only a failed email: a sent one is never sent twice. False when there
 * is no failed email with this id.
 */
export async function resendFailed(q: Queryable, id: string): Promise<boolean> {
  const rows = await q.query(
    `UPDATE mail.outbox SET failed_at = NULL, attempts = 0, next_attempt_at = now(),
       claim_token = NULL, locked_until = NULL
     WHERE id = $1 AND failed_at IS NOT NULL AND sent_at IS NULL RETURNING id`,
    [id],
  );
  return rows.length === 1;
}
