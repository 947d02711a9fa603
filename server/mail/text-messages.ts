// Text messages kept for the dev mailbox (sign-in and verification codes sent to phones when no
// Send SMS hook is configured). This module is the only reader and writer of mail.text_messages.
import type { Queryable } from "../db/database.ts";

type TextMessage = {
  kind: string;
  /** E.164 digits, without "+". */
  to: string;
  channel: "sms" | "whatsapp";
  body: string;
};

type TextMessageRow = {
  id: string;
  kind: string;
  to_phone: string;
  channel: string;
  body: string;
  created_at: Date;
};

export async function keepTextMessage(q: Queryable, message: TextMessage): Promise<void> {
  await q.query(
    "INSERT INTO mail.text_messages (kind, to_phone, channel, body) VALUES ($1, $2, $3, $4)",
    [message.kind, message.to, message.channel, message.body],
  );
}

/** The newest messages first. */
export function recentTextMessages(q: Queryable, limit = 200): Promise<TextMessageRow[]> {
  return q.query<TextMessageRow>(
    "SELECT * FROM mail.text_messages ORDER BY created_at DESC LIMIT $1",
    [limit],
  );
}

/** Days a message is kept, like the outbox's copies of emails (queue/outbox-worker.ts). */
export const TEXT_KEEP_DAYS = 30;

/** Deletes the messages kept TEXT_KEEP_DAYS ago; how many. */
export async function deleteOldTextMessages(q: Queryable): Promise<number> {
  const rows = await q.query(
    "DELETE FROM mail.text_messages WHERE created_at < now() - make_interval(days => $1) RETURNING id",
    [TEXT_KEEP_DAYS],
  );
  return rows.length;
}
