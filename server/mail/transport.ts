// Where emails go: an SMTP server (SMTP_URL), or the dev mailbox (kept in the database only).
import type { OutboxRow } from "./outbox.ts";

export type MailTransport = {
  kind: "smtp" | "mailbox";
  /** Sends one message; an aborted signal ends the send (its connection is closed). */
  send(message: OutboxRow, signal?: AbortSignal): Promise<void>;
  /** A cheap check that the peer answers (connect, greeting, login, quit): no message is sent. */
  verify(): Promise<void>;
  close(): void;
};

type SmtpOptions = {
  /** Connections kept open and reused; sends beyond this many wait for a free one. */
  connections?: number;
  /** false: a new connection for every message (only the benchmark compares this). */
  pool?: boolean;
};

/** nodemailer is loaded only when SMTP is configured. */
export async function smtpTransport(
  smtpUrl: string,
  from: string,
  { connections = 1, pool = true }: SmtpOptions = {},
): Promise<MailTransport> {
  const { default: nodemailer } = await import("nodemailer");
  const timeouts = { connectionTimeout: 10_000, greetingTimeout: 10_000, socketTimeout: 30_000 };
  const transporter = pool
    ? nodemailer.createTransport({
        url: smtpUrl,
        pool: true,
        maxConnections: connections,
        maxMessages: 100,
        // A connection that drops mid-send is reported, never re-sent by the pool: whether the
        // peer kept the message is unknown, and the outbox decides what happens next.
        maxRequeues: 0,
        ...timeouts,
      })
    : nodemailer.createTransport({ url: smtpUrl, ...timeouts });
  return {
    kind: "smtp",
    async send(m, signal) {
      await transporter.sendMail({
        from,
        to: m.to_address,
        replyTo: m.reply_to ?? undefined,
        subject: m.subject,
        text: m.text_body,
        html: m.html_body,
        // The outbox id: a receiver can drop the rare duplicate of a retried delivery.
        messageId: `<${m.id}@outbox.revwise>`,
        headers: { ...m.headers, "X-Revwise-Kind": m.kind },
        signal,
      });
    },
    async verify() {
      await transporter.verify();
    },
    close: () => transporter.close(),
  };
}

/** Development without SMTP: the message is "delivered" to the mailbox page (/_dev/mailbox). */
export function mailboxTransport(): MailTransport {
  return { kind: "mailbox", send: async () => {}, verify: async () => {}, close: () => {} };
}
