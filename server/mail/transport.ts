// Where emails go: an SMTP server (SMTP_URL), or the dev mailbox (kept in the database only).
import type { OutboxRow } from "./outbox.ts";

export type MailTransport = {
  kind: "smtp" | "mailbox";
  send(message: OutboxRow): Promise<void>;
  close(): void;
};

/** nodemailer is loaded only when SMTP is configured. */
export async function smtpTransport(smtpUrl: string, from: string): Promise<MailTransport> {
  const { default: nodemailer } = await import("nodemailer");
  const transporter = nodemailer.createTransport({
    url: smtpUrl,
    connectionTimeout: 10_000,
    greetingTimeout: 10_000,
    socketTimeout: 30_000,
  });
  return {
    kind: "smtp",
    async send(m) {
      await transporter.sendMail({
        from,
        to: m.to_address,
        replyTo: m.reply_to ?? undefined,
        subject: m.subject,
        text: m.text_body,
        html: m.html_body,
        // The outbox id: a receiver can drop the rare duplicate of a retried delivery.
        messageId: `<${m.id}@outbox.revwise>`,
        headers: { "X-Revwise-Kind": m.kind },
      });
    },
    close: () => transporter.close(),
  };
}

/** Development without SMTP: the message is "delivered" to the mailbox page (/_dev/mailbox). */
export function mailboxTransport(): MailTransport {
  return { kind: "mailbox", send: async () => {}, close: () => {} };
}
