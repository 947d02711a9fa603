// The outbox and its workers against a real SMTP server on loopback: an outage, a slow peer
// shared by several workers, a worker stopped mid-batch, rejections, and connection reuse.
import type { ParsedMail } from "mailparser";
import { pino } from "pino";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { FUNCTIONS } from "../../common/functions.ts";
import { FAST_MAIL, startApiServer, uniqueIp } from "../../tests/support/api-server.ts";
import { buildTestApp } from "../../tests/support/app.ts";
import { solvedPayload } from "../../tests/support/captcha.ts";
import { describeEachDatabase } from "../../tests/support/databases.ts";
import { startSmtp, type TestSmtp } from "../../tests/support/smtp.ts";
import {
  addresses,
  expectEachOnce,
  queueTagged,
  rowsOf,
  settled,
  startWorker as startTestWorker,
  tagged,
  waitUntil,
  type OutboxTestRow,
} from "../../tests/support/outbox.ts";
import { migrate } from "../db/migrate.ts";
import {
  DEFAULT_WORKER_OPTIONS,
  DeliveryWorker,
  retryDelayMs,
  type WorkerOptions,
} from "./delivery-worker.ts";
import { enqueue } from "./outbox.ts";
import { smtpTransport } from "./transport.ts";
import { openTestPglite } from "../../tests/support/pglite.ts";

describeEachDatabase("mail delivery", (ctx) => {
  let smtp: TestSmtp;
  beforeAll(async () => {
    await migrate(ctx.db);
    smtp = await startSmtp();
  });
  beforeEach(() => smtp.behave({}));
  afterAll(() => smtp.stop());

  const startWorker = (opts: Partial<WorkerOptions> = {}) => startTestWorker(ctx.db, smtp, opts);

  it("loses nothing in an SMTP outage and drains at once, each email once, when the peer returns", async () => {
    // Long message backoff: only the probe of the peer can bring the queue back this quickly.
    const server = await startApiServer(ctx.db, {
      env: { SMTP_URL: smtp.url },
      mail: {
        worker: { ...FAST_MAIL.worker, retryBaseMs: 60_000, maxDelayMs: 3_600_000, probeMs: 100 },
      },
    });
    await smtp.stop();
    const emails = ["one@outage.example", "two@outage.example", "three@outage.example"];
    for (const email of emails) {
      const { error } = await server
        .client({ ip: uniqueIp() })
        .from("demo_requests")
        .insert({ email });
      expect(error).toBeNull();
    }
    const contact = await server.client({ ip: uniqueIp() }).functions.invoke(FUNCTIONS.contact, {
      body: {
        name: "Outage Test",
        email: "four@outage.example",
        phone: "555 0100",
        message: "Sent while SMTP was down",
        captcha: await solvedPayload(server.url),
      },
    });
    expect(contact.error).toBeNull();
    const outage = "to_address LIKE '%@outage.example' OR subject LIKE '%Outage Test%'";

    // The worker saw the peer refuse, and nothing was marked failed or sent.
    await waitUntil(async () => {
      const rows = await ctx.db.query<{ last_error: string | null }>(
        `SELECT last_error FROM mail.outbox WHERE ${outage}`,
      );
      // The workspace reads this: the kind of failure, never the server's address.
      return (
        rows.length === 4 &&
        rows.some((r) => r.last_error === "could not connect to the SMTP server")
      );
    });
    const pending = await ctx.db.query<OutboxTestRow>(`SELECT * FROM mail.outbox WHERE ${outage}`);
    expect(pending.every((r) => r.sent_at === null && r.failed_at === null)).toBe(true);

    await smtp.start();
    const back = Date.now();
    const ours = (m: ParsedMail) =>
      JSON.stringify(m.to ?? "").includes("@outage.example") ||
      (m.subject?.includes("Outage Test") ?? false);
    await smtp.waitForCount(4, ours, 10_000);
    expect(Date.now() - back).toBeLessThan(5_000);
    await waitUntil(async () => {
      const rows = await ctx.db.query<OutboxTestRow>(`SELECT * FROM mail.outbox WHERE ${outage}`);
      return rows.every((r) => r.sent_at !== null);
    });
    await server.close(); // stops the worker: nothing is in flight any more
    const received = smtp.messages.filter(ours);
    expect(received).toHaveLength(4);
    expect(new Set(received.map((m) => m.messageId)).size).toBe(4);
  });

  it("sends each email exactly once when a slow peer makes every send outlive the claim lease", async () => {
    smtp.behave({ delayMs: 1_200 });
    await queueTagged(ctx.db, "slow", addresses("slow", 6));
    const workers = [await startWorker({ leaseMs: 500 }), await startWorker({ leaseMs: 500 })];
    await waitUntil(settled(ctx.db, "slow"), 30_000);
    await Promise.all(workers.map((w) => w.stop()));
    expectEachOnce(smtp, "slow", 6);
    expect((await rowsOf(ctx.db, "slow")).every((r) => r.sent_at && r.attempts === 1)).toBe(true);
  });

  it("stops between messages and leaves no claim behind, so another worker continues at once", async () => {
    smtp.behave({ delayMs: 400 });
    await queueTagged(ctx.db, "stop", addresses("stop", 5));
    const first = await startWorker({ leaseMs: 60_000 });
    await smtp.waitForCount(1, tagged("stop"));
    await smtp.waitForPendingAnswer(tagged("stop")); // the second message is on the wire
    await first.stop();

    // The message on the wire was finished and recorded; nothing else was started or kept.
    expect(smtp.messages.filter(tagged("stop"))).toHaveLength(2);
    const rows = await rowsOf(ctx.db, "stop");
    expect(rows.filter((r) => r.sent_at)).toHaveLength(2);
    expect(rows.every((r) => r.locked_until === null && r.claim_token === null)).toBe(true);

    const second = await startWorker({ leaseMs: 60_000 });
    await smtp.waitForCount(5, tagged("stop"), 10_000); // long before the 60 s lease
    await waitUntil(settled(ctx.db, "stop"));
    await second.stop();
    expectEachOnce(smtp, "stop", 5);
  });

  it("gives up on a send that outlasts the stop grace, releases it, and it goes out once later", async () => {
    smtp.behave({ delayMs: 20_000 });
    await queueTagged(ctx.db, "hang", addresses("hang", 1));
    const first = await startWorker({ leaseMs: 60_000, stopGraceMs: 200 });
    await smtp.waitForPendingAnswer(tagged("hang"));
    const stopping = Date.now();
    await first.stop();
    expect(Date.now() - stopping).toBeLessThan(2_000);
    const [row] = await rowsOf(ctx.db, "hang");
    expect(row).toMatchObject({ sent_at: null, failed_at: null, claim_token: null });
    expect(row!.locked_until).toBeNull();

    smtp.behave({});
    const second = await startWorker();
    await waitUntil(settled(ctx.db, "hang"));
    await second.stop();
    expectEachOnce(smtp, "hang", 1);
  });

  it("aborts a send whose claim was taken over, so only the new owner's send goes out", async () => {
    smtp.behave({ delayMs: 1_500 });
    await queueTagged(ctx.db, "taken", addresses("taken", 1));
    const first = await startWorker({ leaseMs: 1_000 });
    await smtp.waitForPendingAnswer(tagged("taken"));
    // Another owner takes the claim over (as after an expired lease) and holds it.
    await ctx.db.query(
      `UPDATE mail.outbox SET claim_token = gen_random_uuid(), locked_until = now() + interval '1 hour'
       WHERE subject LIKE 'taken %'`,
    );
    await smtp.waitForAbandoned(1, tagged("taken")); // the first worker hung up before the peer's answer
    await first.stop();
    expect(smtp.messages.filter(tagged("taken"))).toHaveLength(0);
    expect((await rowsOf(ctx.db, "taken"))[0]!.claim_token).not.toBeNull(); // left to its owner

    // The new owner gives it back; it goes out once.
    await ctx.db.query(
      "UPDATE mail.outbox SET claim_token = NULL, locked_until = NULL WHERE subject LIKE 'taken %'",
    );
    smtp.behave({});
    const second = await startWorker();
    await waitUntil(settled(ctx.db, "taken"));
    await second.stop();
    expectEachOnce(smtp, "taken", 1);
  });

  it("says, sending an email whose claim expired unreleased, that its worker died or could not record the send", async () => {
    await queueTagged(ctx.db, "expired", addresses("expired", 1));
    // As a worker leaves it that crashed, or that sent the email while the database was out of
    // reach for the rest of the lease: the token set, the lease over.
    await ctx.db.query(
      `UPDATE mail.outbox SET claim_token = gen_random_uuid(), locked_until = now() - interval '1 second'
       WHERE subject LIKE 'expired %'`,
    );
    const lines: { level: number; msg: string }[] = [];
    const log = pino({ level: "warn" }, { write: (line: string) => lines.push(JSON.parse(line)) });
    const transport = await smtpTransport(smtp.url, "Revwise <no-reply@revwise.example>");
    const worker = new DeliveryWorker(ctx.db, transport, log, {
      ...DEFAULT_WORKER_OPTIONS,
      pollMs: 100,
      probeMs: 100,
    });
    worker.start();
    await waitUntil(settled(ctx.db, "expired"));
    await worker.stop();
    expectEachOnce(smtp, "expired", 1);
    const warning = lines.find((l) => l.msg.includes("claim expired unreleased"));
    expect(warning?.msg).toMatch(/its worker died, or could not record the send/);
    expect(warning?.msg).toMatch(/goes out twice/);
  });

  it("fails a permanently rejected email at once, retries a deferred one, and keeps the queue moving", async () => {
    let deferred = 0;
    smtp.behave({
      rejectRecipient: (address) =>
        address === "bounce@reject.example"
          ? { code: 550, message: "5.1.1 No such user" }
          : address === "later@reject.example" && deferred++ === 0
            ? { code: 451, message: "4.3.0 Try again later" }
            : undefined,
    });
    await queueTagged(ctx.db, "reject", [
      "bounce@reject.example",
      "later@reject.example",
      ...addresses("reject", 3),
    ]);
    const worker = await startWorker({ retryBaseMs: 100, maxDelayMs: 200 });
    await waitUntil(settled(ctx.db, "reject"));
    await worker.stop();

    const rows = await rowsOf(ctx.db, "reject");
    expect(rows[0]).toMatchObject({ attempts: 1, sent_at: null, claim_token: null });
    expect(rows[0]!.failed_at).not.toBeNull();
    expect(rows[0]!.last_error).toMatch(/550/);
    expect(rows[1]).toMatchObject({ attempts: 2, failed_at: null });
    expect(rows[1]!.sent_at).not.toBeNull();
    expect(rows.slice(2).every((r) => r.sent_at && r.attempts === 1)).toBe(true);
    expectEachOnce(smtp, "reject", 4);
  });

  it("asks for due emails once a poll when idle, not once per lane, and still sends a backlog on every lane", async () => {
    // The claims the worker makes, counted on their way to the real database.
    const claimedAt: number[] = [];
    const counted = new Proxy(ctx.db, {
      get(db, key) {
        if (key === "query")
          return (sql: string, params?: unknown[]) => {
            if (sql.includes("SET claim_token = gen_random_uuid()"))
              claimedAt.push(performance.now());
            return db.query(sql, params);
          };
        const value = Reflect.get(db, key) as unknown;
        return typeof value === "function"
          ? (value as (...a: unknown[]) => unknown).bind(db)
          : value;
      },
    });
    const pollMs = 150;
    const lanes = 4;
    const options = { ...DEFAULT_WORKER_OPTIONS, concurrency: lanes, pollMs, probeMs: 100 };
    const transport = await smtpTransport(smtp.url, "Revwise <no-reply@revwise.example>", {
      connections: lanes,
    });
    const worker = new DeliveryWorker(counted, transport, pino({ level: "silent" }), options);
    worker.start();
    // Each lane asks once as it starts; after that, one ask a poll.
    const polls = 5;
    await waitUntil(() => Promise.resolve(claimedAt.length >= lanes + polls), 10_000);
    const span = claimedAt[lanes + polls - 1]! - claimedAt[lanes - 1]!;
    expect(span).toBeGreaterThanOrEqual(polls * pollMs * 0.9);

    // Rows queued without a kick: the polling lane finds the first and wakes the others, so all
    // four are on the wire at once.
    smtp.behave({ delayMs: 800 });
    await queueTagged(ctx.db, "lanes", addresses("lanes", lanes));
    await smtp.waitForPendingAnswers(lanes, tagged("lanes"), 10_000);
    await waitUntil(settled(ctx.db, "lanes"));
    await worker.stop();
    expectEachOnce(smtp, "lanes", lanes);
  });

  it("reuses one SMTP connection for many emails", async () => {
    await queueTagged(ctx.db, "reuse", addresses("reuse", 20));
    const before = smtp.connections;
    const worker = await startWorker({ concurrency: 1 });
    await waitUntil(settled(ctx.db, "reuse"));
    await worker.stop();
    expect(smtp.connections - before).toBe(1);
    expectEachOnce(smtp, "reuse", 20);
  });
});

describe("retry schedule", () => {
  it("doubles from the base delay up to the cap, with ±20% jitter", () => {
    const opts = { retryBaseMs: 2000, maxDelayMs: 3_600_000 };
    expect([1, 2, 3, 4, 5].map((n) => retryDelayMs(n, opts, () => 0.5))).toEqual([
      2000, 4000, 8000, 16000, 32000,
    ]);
    expect(retryDelayMs(30, opts, () => 0.5)).toBe(3_600_000);
    expect(retryDelayMs(1, opts, () => 0)).toBe(1600);
    expect(retryDelayMs(1, opts, () => 1)).toBe(2400);
  });
});

describe("dev mailbox", () => {
  const db = openTestPglite();
  afterAll(async () => (await db).close());

  it("lists queued emails in development, escaped, with clickable links", async () => {
    const app = await buildTestApp(await db, { env: { NODE_ENV: "development" } });
    await enqueue(await db, {
      kind: "test",
      to: "dev@example.com",
      subject: "<b>Confirm</b> your address",
      text: "Open https://example.com/verify?token=abc",
      html: "<p>x</p>",
    });
    const list = await app.inject({ url: "/_dev/mailbox" });
    expect(list.statusCode).toBe(200);
    expect(list.body).toContain("&lt;b&gt;Confirm&lt;/b&gt; your address");
    expect(list.headers["cache-control"]).toBe("no-store");
    const id = /href="\/_dev\/mailbox\/([0-9a-f-]{36})"/.exec(list.body)![1];
    const one = await app.inject({ url: `/_dev/mailbox/${id}` });
    expect(one.body).toContain('<a href="https://example.com/verify?token=abc">');
    expect((await app.inject({ url: "/_dev/mailbox/not-a-uuid" })).statusCode).toBe(404);
    await app.close();
  });

  it("answers only requests from this machine, after the trusted proxy's forwarded address", async () => {
    const app = await buildTestApp(await db, {
      env: { NODE_ENV: "development", TRUST_PROXY: "loopback", DEV_MAILBOX: "true" },
    });
    const from = async (remoteAddress: string, forwardedFor?: string) =>
      (
        await app.inject({
          url: "/_dev/mailbox",
          remoteAddress,
          headers: forwardedFor ? { "x-forwarded-for": forwardedFor } : {},
        })
      ).statusCode;
    expect(await from("127.0.0.1")).toBe(200);
    expect(await from("::1")).toBe(200);
    // A page elsewhere whose name was made to resolve to this machine (DNS rebinding) names its
    // own host: refused. This machine's names and the site's own host are answered.
    const named = async (host: string) =>
      (await app.inject({ url: "/_dev/mailbox", remoteAddress: "127.0.0.1", headers: { host } }))
        .statusCode;
    expect(await named("attacker.example:3000")).toBe(404);
    // Every method is hidden alike from a caller it is hidden from.
    const deleted = async (host: string) =>
      (
        await app.inject({
          method: "DELETE",
          url: "/_dev/mailbox",
          remoteAddress: "127.0.0.1",
          headers: { host },
        })
      ).statusCode;
    expect(await deleted("attacker.example:3000")).toBe(404);
    expect(await deleted("localhost:3000")).toBe(405);
    expect(await named("127.0.0.1.attacker.example")).toBe(404);
    expect(await named("localhost:3000")).toBe(200);
    expect(await named("[::1]:3000")).toBe(200);
    expect(await named("127.0.0.1:3000")).toBe(200);
    expect(await named(new URL(app.config.siteUrl).host)).toBe(200);
    // A visitor through a proxy on this machine, and one reaching the server directly.
    expect(await from("127.0.0.1", "198.51.100.7")).toBe(404);
    expect(await from("203.0.113.5")).toBe(404);
    expect(
      (
        await app.inject({
          url: "/_dev/mailbox/00000000-0000-0000-0000-000000000000",
          remoteAddress: "203.0.113.5",
        })
      ).statusCode,
    ).toBe(404);
    await app.close();
  });

  it("does not exist in production on an address reachable from elsewhere", async () => {
    const app = await buildTestApp(await db, {
      env: { NODE_ENV: "production", HOST: "0.0.0.0", SITE_URL: "https://revwise.example" },
    });
    expect((await app.inject({ url: "/_dev/mailbox" })).statusCode).toBe(404);
    await app.close();
  });
});
