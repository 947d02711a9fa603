// The outbox seen by the mail tests: queue tagged emails, read their rows, check the SMTP peer
// received each exactly once, and run a delivery worker against a test SMTP server.
import type { ParsedMail } from "mailparser";
import { pino } from "pino";
import { expect } from "vitest";
import type { Database } from "../../server/db/database.ts";
import {
  DEFAULT_WORKER_OPTIONS,
  DeliveryWorker,
  type WorkerOptions,
} from "../../server/mail/delivery-worker.ts";
import { enqueue } from "../../server/mail/outbox.ts";
import { smtpTransport } from "../../server/mail/transport.ts";
import type { TestSmtp } from "./smtp.ts";

export type OutboxTestRow = {
  to_address: string;
  attempts: number;
  sent_at: Date | null;
  failed_at: Date | null;
  locked_until: Date | null;
  claim_token: string | null;
  last_error: string | null;
};

/** Queues emails whose subjects start with the tag, so each test finds its own. */
export async function queueTagged(db: Database, tag: string, recipients: string[]) {
  for (const [i, to] of recipients.entries())
    await enqueue(db, {
      kind: "test",
      to,
      subject: `${tag} ${i}`,
      text: "Hello",
      html: "<p>Hi</p>",
    });
}

export const addresses = (tag: string, n: number) =>
  Array.from({ length: n }, (_, i) => `m${i}@${tag}.example`);

export const tagged = (tag: string) => (m: ParsedMail) => m.subject?.startsWith(`${tag} `) ?? false;

export const rowsOf = (db: Database, tag: string) =>
  db.query<OutboxTestRow>(
    `SELECT to_address, attempts, sent_at, failed_at, locked_until, claim_token, last_error
     FROM mail.outbox WHERE subject LIKE $1 ORDER BY subject`,
    [`${tag} %`],
  );

/** Every email of the tag is sent or failed. */
export const settled = (db: Database, tag: string) => async () =>
  (await rowsOf(db, tag)).every((r) => r.sent_at !== null || r.failed_at !== null);

export { waitUntil } from "./poll.ts";

/** Each accepted message of the tag, once: as many distinct Message-IDs as messages. */
export function expectEachOnce(smtp: TestSmtp, tag: string, count: number) {
  const ids = smtp.messages.filter(tagged(tag)).map((m) => m.messageId);
  expect(ids).toHaveLength(count);
  expect(new Set(ids).size).toBe(count);
}

/** A started delivery worker sending to the test SMTP server, with fast polls and probes. */
export async function startWorker(
  db: Database,
  smtp: TestSmtp,
  opts: Partial<WorkerOptions> = {},
): Promise<DeliveryWorker> {
  const options = { ...DEFAULT_WORKER_OPTIONS, pollMs: 100, probeMs: 100, ...opts };
  const transport = await smtpTransport(smtp.url, "Revwise <no-reply@revwise.example>", {
    connections: options.concurrency,
  });
  const worker = new DeliveryWorker(db, transport, pino({ level: "silent" }), options);
  worker.start();
  return worker;
}
