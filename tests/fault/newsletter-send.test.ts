// A newsletter issue to 10,000 subscribers sent by two built server processes on one PostgreSQL
// database, one of them killed with SIGKILL mid-send: every address receives the issue once (none
// twice, none missing), and the copies are queued no faster than NEWSLETTER_SEND_RATE (a token
// bucket: at most one second's worth at once, then the rate).
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { tempDir } from "../support/app.ts";
import { waitUntil } from "../support/poll.ts";
import { useMigratedDatabase } from "../support/migrated-postgres.ts";
import { postgresAvailable } from "../support/postgres.ts";
import { sharedDeploymentEnv, startServer } from "../support/server-process.ts";
import { addressOf, startSmtp, type TestSmtp } from "../support/smtp.ts";

const SUBSCRIBERS = 10_000;
const RATE = 200; // copies a second, both instances together
const DOMAIN = "readers.example";
/** Emails each instance sends at a time. */
const LANES = 2;

describe.skipIf(!(await postgresAvailable()))("a newsletter issue sent by two instances", () => {
  const database = useMigratedDatabase();
  let smtp: TestSmtp;
  beforeAll(async () => {
    smtp = await startSmtp();
  });
  afterAll(() => smtp?.stop());

  /** An instance sending two emails at a time, whose claims outlive it by 2 s. */
  function instance() {
    const dataDir = tempDir();
    return startServer({
      ...sharedDeploymentEnv(database.url, "https://revwise.example"),
      SMTP_URL: smtp.url,
      SMTP_POOL_SIZE: String(LANES),
      MAIL_LEASE_SECONDS: "2",
      NEWSLETTER_SEND_RATE: String(RATE),
      DATA_DIR: dataDir,
      SITE_DIR: path.join(dataDir, "no-site"),
    });
  }

  const received = () => smtp.messages.filter((m) => addressOf(m).endsWith(`@${DOMAIN}`));

  it("sends each address the issue once at the configured rate, across a kill -9", async () => {
    const { db } = database;
    await db.query(
      `INSERT INTO public.newsletter_subscribers (email, status, confirmed_at)
       SELECT 'r' || n || '@${DOMAIN}', 'subscribed', now() FROM generate_series(1, $1) AS n`,
      [SUBSCRIBERS],
    );
    const [a, b] = await Promise.all([instance(), instance()]);
    const [issue] = await db.query<{ id: string }>(
      `INSERT INTO public.newsletter_issues (subject, body, status, send_at)
       VALUES ('Ten thousand readers', 'Hello, **reader**.', 'scheduled', now()) RETURNING id`,
    );
    try {
      await smtp.waitForCount(2_000, (m) => addressOf(m).endsWith(`@${DOMAIN}`), 60_000);
      // Every answer held back until each lane of both instances is mid-message (the one it sent
      // before was answered and recorded): an instance whose lanes found nothing to send sleeps
      // until its next poll, and only then has a message on the wire. So the killed instance's
      // message was not accepted, and is sent again by the other instance once its claim expires.
      smtp.behave({ delayMs: 8_000 });
      await smtp.waitForPendingAnswers(LANES * 2, (m) => addressOf(m).endsWith(`@${DOMAIN}`));
      await a.stop("SIGKILL");
      // Killed mid-message: the peer drops what it had not answered.
      await smtp.waitForAbandoned(1, (m) => addressOf(m).endsWith(`@${DOMAIN}`), 15_000);
      smtp.behave({});
      await waitUntil(
        async () =>
          (
            await db.query<{ n: number }>(
              `SELECT count(*)::int AS n FROM public.newsletter_sends
               WHERE issue_id = $1 AND sent_at IS NOT NULL`,
              [issue!.id],
            )
          )[0]!.n === SUBSCRIBERS,
        540_000, // the rate is an upper bound: a loaded machine sends slower
        () => `${received().length} received`,
      );
    } finally {
      await a.stop("SIGKILL");
      expect(await b.stop("SIGTERM")).toBe(0);
    }

    // None twice, none missing: one message per address, each its own Message-ID.
    const copies = received();
    const perAddress = new Map<string, number>();
    for (const m of copies) perAddress.set(addressOf(m), (perAddress.get(addressOf(m)) ?? 0) + 1);
    expect(perAddress.size).toBe(SUBSCRIBERS);
    expect([...perAddress.values()].filter((n) => n !== 1)).toEqual([]);
    expect(new Set(copies.map((m) => m.messageId)).size).toBe(SUBSCRIBERS);
    const [state] = await db.query<{ status: string; sends: number; failed: number }>(
      `SELECT i.status, count(s.*)::int AS sends,
         count(*) FILTER (WHERE s.failed_at IS NOT NULL)::int AS failed
       FROM public.newsletter_issues i JOIN public.newsletter_sends s ON s.issue_id = i.id
       WHERE i.id = $1 GROUP BY i.status`,
      [issue!.id],
    );
    expect(state).toEqual({ status: "sent", sends: SUBSCRIBERS, failed: 0 });

    // The rate: in any one second, at most a second's burst and a second's rate were queued;
    // the whole issue took at least as long as the rate allows.
    const times = (
      await db.query<{ at: number }>(
        `SELECT EXTRACT(EPOCH FROM queued_at)::float8 AS at FROM public.newsletter_sends
         WHERE issue_id = $1 ORDER BY queued_at`,
        [issue!.id],
      )
    ).map((r) => r.at);
    let busiest = 0;
    for (let i = 0, j = 0; i < times.length; i++) {
      while (times[j]! < times[i]! - 1) j++;
      busiest = Math.max(busiest, i - j + 1);
    }
    const spanSeconds = times.at(-1)! - times[0]!;
    console.info(
      `newsletter: ${SUBSCRIBERS} copies queued in ${spanSeconds.toFixed(1)} s (${(SUBSCRIBERS / spanSeconds).toFixed(0)}/s at NEWSLETTER_SEND_RATE=${RATE}), busiest second ${busiest}`,
    );
    expect(busiest).toBeLessThanOrEqual(2 * RATE + 1);
    expect(spanSeconds).toBeGreaterThanOrEqual(SUBSCRIBERS / RATE - 1);
  }, 720_000);
});
