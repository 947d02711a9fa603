// The outbox and its worker against a real SMTP server on loopback, including an outage.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FUNCTIONS } from "../../common/functions.ts";
import { startApiServer, uniqueIp, type ApiServer } from "../../tests/support/api-server.ts";
import { buildTestApp } from "../../tests/support/app.ts";
import { solvedPayload } from "../../tests/support/captcha.ts";
import { describeEachDatabase } from "../../tests/support/databases.ts";
import { startSmtp, type TestSmtp } from "../../tests/support/smtp.ts";
import { openPglite } from "../db/pglite.ts";
import { retryDelayMs } from "./delivery-worker.ts";
import { enqueue } from "./outbox.ts";

const waitUntil = async (check: () => Promise<boolean>, timeoutMs = 15_000) => {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error("condition not met in time");
    await new Promise((r) => setTimeout(r, 50));
  }
};

describeEachDatabase("mail delivery", (ctx) => {
  let server: ApiServer;
  let smtp: TestSmtp;
  beforeAll(async () => {
    smtp = await startSmtp();
    server = await startApiServer(ctx.db, { env: { SMTP_URL: smtp.url } });
  });
  afterAll(async () => {
    await server.close();
    await smtp.stop();
  });

  it("loses nothing in an SMTP outage and delivers every email exactly once when it ends", async () => {
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

    // The worker keeps trying: attempts climb, nothing is marked failed or sent.
    await waitUntil(async () => {
      const rows = await ctx.db.query<{ attempts: number }>(
        "SELECT attempts FROM mail.outbox WHERE to_address LIKE '%@outage.example' OR subject LIKE '%Outage Test%'",
      );
      return rows.length === 4 && rows.every((r) => r.attempts >= 2);
    });
    const pending = await ctx.db.query<{
      sent_at: Date | null;
      failed_at: Date | null;
      last_error: string | null;
    }>(
      "SELECT sent_at, failed_at, last_error FROM mail.outbox WHERE to_address LIKE '%@outage.example' OR subject LIKE '%Outage Test%'",
    );
    expect(
      pending.every(
        (r) =>
          r.sent_at === null && r.failed_at === null && /ECONNREFUSED/.test(r.last_error ?? ""),
      ),
    ).toBe(true);

    await smtp.start();
    for (const email of emails)
      await smtp.waitFor((m) => JSON.stringify(m.to ?? "").includes(email));
    await smtp.waitFor((m) => m.subject === "New contact message from Outage Test");
    await new Promise((r) => setTimeout(r, 800)); // time for any duplicate to show up
    const received = smtp.messages.filter(
      (m) => JSON.stringify(m.to).includes("@outage.example") || m.subject?.includes("Outage Test"),
    );
    expect(received).toHaveLength(4);
    expect(new Set(received.map((m) => m.messageId)).size).toBe(4);
    const sent = await ctx.db.query<{ n: number }>(
      "SELECT count(*)::int AS n FROM mail.outbox WHERE sent_at IS NOT NULL AND (to_address LIKE '%@outage.example' OR subject LIKE '%Outage Test%')",
    );
    expect(sent[0]!.n).toBe(4);
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
  const db = openPglite(undefined);
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

  it("does not exist in production", async () => {
    const app = await buildTestApp(await db, { env: { NODE_ENV: "production" } });
    expect((await app.inject({ url: "/_dev/mailbox" })).statusCode).toBe(404);
    await app.close();
  });
});
