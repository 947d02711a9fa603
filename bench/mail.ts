// npm run bench:mail: emails per second the delivery worker sends to an SMTP server on loopback,
// with its pool of reused connections (as the server runs) next to a new connection for every
// email (as it ran before), measured in the same run, same database, same number of lanes.
import { pino } from "pino";
import type { Database } from "../server/db/database.ts";
import { migrate } from "../server/db/migrate.ts";
import { openPglite } from "../server/db/pglite.ts";
import { DEFAULT_WORKER_OPTIONS, DeliveryWorker } from "../server/mail/delivery-worker.ts";
import { enqueue } from "../server/mail/outbox.ts";
import { smtpTransport } from "../server/mail/transport.ts";
import { startSmtp, type TestSmtp } from "../tests/support/smtp.ts";
import { fmt, table } from "./lib.ts";

const EMAILS = Number(process.env.BENCH_EMAILS ?? 400);
const LANES = DEFAULT_WORKER_OPTIONS.concurrency;

async function emailsPerSecond(db: Database, smtp: TestSmtp, pool: boolean): Promise<number> {
  const tag = pool ? "pooled" : "unpooled";
  for (let i = 0; i < EMAILS; i++)
    await enqueue(db, {
      kind: "bench",
      to: `reader${i}@${tag}.example`,
      subject: `${tag} ${i}`,
      text: "Your demo is ready.",
      html: "<p>Your demo is ready.</p>",
    });
  const transport = await smtpTransport(smtp.url, "Revwise <no-reply@revwise.example>", {
    connections: LANES,
    pool,
  });
  const worker = new DeliveryWorker(db, transport, pino({ level: "silent" }), {
    ...DEFAULT_WORKER_OPTIONS,
    concurrency: LANES,
  });
  const started = performance.now();
  worker.start();
  await smtp.waitForCount(EMAILS, (m) => m.subject?.startsWith(`${tag} `) ?? false, 600_000);
  const seconds = (performance.now() - started) / 1000;
  await worker.stop();
  return EMAILS / seconds;
}

const db = await openPglite(undefined);
await migrate(db);
const smtp = await startSmtp();
const before = smtp.connections;
const unpooled = await emailsPerSecond(db, smtp, false);
const unpooledConnections = smtp.connections - before;
const pooled = await emailsPerSecond(db, smtp, true);
const pooledConnections = smtp.connections - before - unpooledConnections;
await smtp.stop();
await db.close();

console.log(`\n${EMAILS} emails each way, ${LANES} lanes, SMTP server on loopback, PGlite\n`);
table([
  {
    delivery: "new connection per email",
    connections: unpooledConnections,
    "emails/s": fmt(unpooled),
    ratio: "1.00 ×",
  },
  {
    delivery: "pooled connections",
    connections: pooledConnections,
    "emails/s": fmt(pooled),
    ratio: `${fmt(pooled / unpooled, 2)} ×`,
  },
]);
