// The built server delivering mail on PostgreSQL, stopped mid-batch by SIGTERM and by SIGKILL:
// nothing is lost, nothing goes out twice, and what it left behind is sent by another worker.
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { tempDir } from "../support/app.ts";
import {
  addresses,
  expectEachOnce,
  queueTagged,
  rowsOf,
  settled,
  startWorker,
  tagged,
  waitUntil,
} from "../support/outbox.ts";
import { createTestDatabase, postgresAvailable, type TestDatabase } from "../support/postgres.ts";
import { startServer } from "../support/server-process.ts";
import { startSmtp, type TestSmtp } from "../support/smtp.ts";
import type { Database } from "../../server/db/database.ts";
import { migrate } from "../../server/db/migrate.ts";
import { openPostgres } from "../../server/db/postgres.ts";

describe.skipIf(!(await postgresAvailable()))("mail delivery by the server process", () => {
  let testDb: TestDatabase;
  let db: Database;
  let smtp: TestSmtp;
  beforeAll(async () => {
    testDb = await createTestDatabase();
    db = await openPostgres(testDb.url, 2);
    await migrate(db);
    smtp = await startSmtp({ delayMs: 300 });
  });
  afterAll(async () => {
    await smtp?.stop();
    await db?.close();
    await testDb?.drop();
  });

  /** A server on the suite's database sending one email at a time. */
  function startMailServer(leaseSeconds: number) {
    const dataDir = tempDir();
    return startServer({
      DATABASE_URL: testDb.url,
      SITE_URL: "https://revwise.example",
      JWT_SECRET: "a-shared-secret-of-at-least-32-characters",
      SMTP_URL: smtp.url,
      SMTP_POOL_SIZE: "1",
      MAIL_LEASE_SECONDS: String(leaseSeconds),
      DATA_DIR: dataDir,
      SITE_DIR: path.join(dataDir, "no-site"),
    });
  }

  /** The server sends the queued emails one at a time; resolves once it is mid-message. */
  async function serverMidBatch(tag: string, leaseSeconds: number, onTheWireMs: number) {
    await queueTagged(db, tag, addresses(tag, 6));
    const server = await startMailServer(leaseSeconds);
    await smtp.waitForCount(2, tagged(tag));
    // The third email stays on the wire long enough for the signal to land mid-message.
    smtp.behave({ delayMs: onTheWireMs });
    await smtp.waitForPendingAnswer(tagged(tag));
    smtp.behave({ delayMs: 300 });
    return server;
  }

  it("on SIGTERM finishes the email on the wire, exits 0 and leaves the rest unclaimed", async () => {
    const server = await serverMidBatch("term", 60, 1_500);
    expect(await server.stop("SIGTERM")).toBe(0);
    expect(smtp.messages.filter(tagged("term"))).toHaveLength(3);
    const rows = await rowsOf(db, "term");
    expect(rows.filter((r) => r.sent_at)).toHaveLength(3);
    expect(rows.every((r) => r.claim_token === null && r.locked_until === null)).toBe(true);

    const worker = await startWorker(db, smtp);
    await waitUntil(settled(db, "term"), 10_000); // far sooner than the 60 s lease
    await worker.stop();
    expectEachOnce(smtp, "term", 6);
  });

  it("after kill -9 loses nothing: the email it held is sent by another worker when its lease ends", async () => {
    const server = await serverMidBatch("kill", 2, 10_000);
    await server.stop("SIGKILL");
    const held = (await rowsOf(db, "kill")).filter((r) => r.claim_token !== null);
    expect(held).toHaveLength(1); // one email per lane is ever claimed

    const worker = await startWorker(db, smtp);
    await waitUntil(settled(db, "kill"), 15_000);
    await worker.stop();
    // The peer had not answered the email on the wire, so it was not delivered: once in all.
    expectEachOnce(smtp, "kill", 6);
    expect((await rowsOf(db, "kill")).every((r) => r.sent_at !== null)).toBe(true);
  });

  it("sends each email once from two instances whose sends to a slow peer outlast the lease", async () => {
    smtp.behave({ delayMs: 1_500 }); // each send outlives the 1 s lease: only renewals hold it
    const servers = await Promise.all([startMailServer(1), startMailServer(1)]);
    await queueTagged(db, "pair", addresses("pair", 8));
    await smtp.waitForCount(8, tagged("pair"), 30_000);
    await waitUntil(settled(db, "pair"));
    expect(await Promise.all(servers.map((s) => s.stop("SIGTERM")))).toEqual([0, 0]);
    expectEachOnce(smtp, "pair", 8);
    expect((await rowsOf(db, "pair")).every((r) => r.attempts === 1)).toBe(true);
  });
});
