// Rate limits shared through Redis: two instances behind a load balancer count together.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startApiServer, uniqueIp, type ApiServer } from "../../tests/support/api-server.ts";
import { redisAvailable, TEST_REDIS_URL } from "../../tests/support/redis.ts";
import { openPglite } from "../db/pglite.ts";
import type { Database } from "../db/database.ts";

const haveRedis = await redisAvailable();

describe.skipIf(!haveRedis)("rate limits shared through Redis", () => {
  let db: Database;
  let a: ApiServer;
  let b: ApiServer;
  beforeAll(async () => {
    db = await openPglite(undefined);
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
