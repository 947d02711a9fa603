// Rate limits shared through Redis: two instances behind a load balancer count together.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startApiServer, uniqueIp, type ApiServer } from "../../tests/support/api-server.ts";
import { redisAvailable, TEST_REDIS_URL } from "../../tests/support/redis.ts";
import type { Database } from "../db/database.ts";
import { openTestPglite } from "../../tests/support/pglite.ts";

const haveRedis = await redisAvailable();

describe.skipIf(!haveRedis)("rate limits shared through Redis", () => {
  let db: Database;
  let a: ApiServer;
  let b: ApiServer;
  beforeAll(async () => {
    db = await openTestPglite();
    a = await startApiServer(db, { env: { REDIS_URL: TEST_REDIS_URL } });
    b = await startApiServer(db, { env: { REDIS_URL: TEST_REDIS_URL } });
  });
  afterAll(async () => {
    await a.close();
    await b.close();
    await db.close();
  });

  it("counts one client's writes across instances", async () => {
    const ip = uniqueIp() + String(Date.now() % 1000);
    const statuses: number[] = [];
    for (let i = 0; i < 11; i++) {
      const server = i % 2 === 0 ? a : b;
      statuses.push(
        (
          await server
            .client({ ip })
            .from("newsletter_subscribers")
            .insert({ email: `shared${i}-${ip}@example.com` })
        ).status,
      );
    }
    expect(statuses.slice(0, 10)).toEqual(Array(10).fill(201));
    expect(statuses[10]).toBe(429);
  });

  it("spends one email budget across instances: per client IP and for the whole site", async () => {
    // Budgets belong to a site (SITE_URL): a fresh one per run, shared by both instances.
    const env = {
      REDIS_URL: TEST_REDIS_URL,
      SITE_URL: `https://budget-${Date.now()}-${process.pid}.example`,
      RATE_LIMIT_EMAIL_IP: "2",
      RATE_LIMIT_LEAD_EMAIL_SENT: "3",
    };
    const c = await startApiServer(db, { env });
    const d = await startApiServer(db, { env });
    try {
      const ask = (server: ApiServer, ip: string, email: string) =>
        server.client({ ip }).from("demo_requests").insert({ email });
      const ip = uniqueIp();
      expect((await ask(c, ip, `r1-${ip}@shared.example`)).status).toBe(201);
      expect((await ask(d, ip, `r2-${ip}@shared.example`)).status).toBe(201);
      expect((await ask(c, ip, `r3-${ip}@shared.example`)).error).toMatchObject({
        code: "over_email_send_rate_limit",
      });
      // A repeat of an address is known to the other instance: 200, nothing new queued.
      expect((await ask(d, uniqueIp(), `r1-${ip}@shared.example`)).status).toBe(200);
      const queued = await db.query<{ n: number }>(
        "SELECT count(*)::int AS n FROM mail.outbox WHERE to_address = $1",
        [`r1-${ip}@shared.example`],
      );
      expect(queued[0]!.n).toBe(1);
      expect((await ask(d, uniqueIp(), `r4-${ip}@shared.example`)).status).toBe(201);
      expect((await ask(c, uniqueIp(), `r5-${ip}@shared.example`)).error).toMatchObject({
        code: "over_email_send_rate_limit",
      });
      // Account emails count apart from the forms' replies.
      const signUp = await d
        .client({ ip: uniqueIp() })
        .auth.signUp({ email: `r6-${ip}@shared.example`, password: "Correct-Horse-9" });
      expect(signUp.error).toBeNull();
    } finally {
      await c.close();
      await d.close();
    }
  });

  it("keeps counting email budgets in the process when Redis fails", async () => {
    const c = await startApiServer(db, {
      env: {
        REDIS_URL: TEST_REDIS_URL,
        SITE_URL: `https://redis-down-${Date.now()}-${process.pid}.example`,
        RATE_LIMIT_EMAIL_IP: "2",
      },
    });
    try {
      c.app.redis!.disconnect();
      const ip = uniqueIp();
      const ask = (email: string) => c.client({ ip }).from("demo_requests").insert({ email });
      expect((await ask(`down1-${ip}@shared.example`)).status).toBe(201);
      expect((await ask(`down2-${ip}@shared.example`)).status).toBe(201);
      expect((await ask(`down3-${ip}@shared.example`)).error).toMatchObject({
        code: "over_email_send_rate_limit",
      });
    } finally {
      await c.close();
    }
  });

  it("keeps counting the forms' limit in the process when Redis fails", async () => {
    const c = await startApiServer(db, { env: { REDIS_URL: TEST_REDIS_URL } });
    try {
      c.app.redis!.disconnect();
      const ip = uniqueIp();
      const statuses: number[] = [];
      for (let i = 0; i < 11; i++)
        statuses.push(
          (
            await c
              .client({ ip })
              .from("newsletter_subscribers")
              .insert({ email: `redis-down${i}-${ip}@example.com` })
          ).status,
        );
      expect(statuses).toEqual([...Array(10).fill(201), 429]);
    } finally {
      await c.close();
    }
  });

  it("without Redis each instance counts alone (the in-process store)", async () => {
    const c = await startApiServer(db);
    const d = await startApiServer(db);
    try {
      const ip = uniqueIp();
      for (let i = 0; i < 10; i++)
        expect(
          (
            await c
              .client({ ip })
              .from("newsletter_subscribers")
              .insert({ email: `solo${i}@example.com` })
          ).status,
        ).toBe(201);
      expect(
        (
          await c
            .client({ ip })
            .from("newsletter_subscribers")
            .insert({ email: "solo10@example.com" })
        ).status,
      ).toBe(429);
      expect(
        (
          await d
            .client({ ip })
            .from("newsletter_subscribers")
            .insert({ email: "solo11@example.com" })
        ).status,
      ).toBe(201);
    } finally {
      await c.close();
      await d.close();
    }
  });
});
