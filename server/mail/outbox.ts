// The outbox: emails are written here, in the same transaction as whatever caused them, and
// delivered later by the worker (delivery-worker.ts).
import type { Queryable } from "../db/database.ts";

export type Email = {
  kind: string;
  to: string;
  subject: string;
  text: string;
  html: string;
  replyTo?: string;
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
};

export async function enqueue(q: Queryable, email: Email): Promise<string> {
  const [row] = await q.query<{ id: string }>(
    `INSERT INTO mail.outbox (kind, to_address, subject, text_body, html_body, reply_to)
     VALUES ($1, $2, $3, $4, $5, $6) RETURNING id`,
    [email.kind, email.to, email.subject, email.text, email.html, email.replyTo ?? null],
  );
  return row!.id;
}
