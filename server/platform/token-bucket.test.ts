// Refilling buckets: a burst up to the capacity, then the steady rate, with the wait until the
// next request in whole seconds; in memory, and in a real Redis shared by two stores (as two
// instances share it), counted in the process while Redis cannot be reached.
import { Redis } from "ioredis";
import { afterAll, describe, expect, it } from "vitest";
import { freePort } from "../../tests/support/ports.ts";
import { redisAvailable, TEST_REDIS_URL } from "../../tests/support/redis.ts";
import { MemoryBuckets, RedisBuckets, type BucketStore } from "./token-bucket.ts";

const rule = { capacity: 3, perSecond: 0.5 };

async function takes(store: BucketStore, key: string, n: number) {
  const results = [];
  for (let i = 0; i < n; i++) results.push(await store.take(key, rule));
  return results;
}

describe("refilling buckets in memory", () => {
  it("lets a burst through, then one request per refill, per key", async () => {
    let now = 1_000_000;
    const store = new MemoryBuckets(() => now);
    expect(await takes(store, "a", 4)).toEqual([
      { ok: true },
      { ok: true },
      { ok: true },
      { ok: false, retryAfterSeconds: 2 },
    ]);
    expect(await store.take("b", rule)).toEqual({ ok: true });
    now += 1000; // half a request refilled
    expect(await store.take("a", rule)).toEqual({ ok: false, retryAfterSeconds: 1 });
    now += 1000;
    expect(await takes(store, "a", 2)).toEqual([{ ok: true }, { ok: false, retryAfterSeconds: 2 }]);
    now += 60_000; // refilled to the capacity, never beyond
    expect((await takes(store, "a", 4)).map((t) => t.ok)).toEqual([true, true, true, false]);
  });
});

const haveRedis = await redisAvailable();

describe.skipIf(!haveRedis)("refilling buckets in Redis", () => {
  const clients: Redis[] = [];
  const connect = (url = TEST_REDIS_URL) => {
    const redis = new Redis(url, {
      maxRetriesPerRequest: 0,
      enableOfflineQueue: false,
      lazyConnect: true,
    });
    redis.on("error", () => {});
    clients.push(redis);
    return redis;
  };
  afterAll(() => clients.forEach((c) => c.disconnect()));

  it("shares each bucket between stores, by Redis's clock", async () => {
    const [a, b] = [connect(), connect()];
    await Promise.all([a.connect(), b.connect()]);
    const errors: Error[] = [];
    const prefix = `test-tb-${Date.now()}-${process.pid}:`;
    const one = new RedisBuckets(a, prefix, (e) => errors.push(e));
    const two = new RedisBuckets(b, prefix, (e) => errors.push(e));
    const results = [
      await one.take("k", rule),
      await two.take("k", rule),
      await one.take("k", rule),
      await two.take("k", rule),
    ];
    expect(results.map((r) => r.ok)).toEqual([true, true, true, false]);
    expect(results[3]).toMatchObject({ retryAfterSeconds: 2 });
    expect(await two.take("other", rule)).toEqual({ ok: true });
    // The bucket expires once it would be full again.
    expect(await a.pttl(`${prefix}k`)).toBeGreaterThan(5000);
    expect(await a.pttl(`${prefix}k`)).toBeLessThanOrEqual(7000);
    expect(errors).toEqual([]);
  });

  it("counts in this process while Redis cannot be reached, and says so", async () => {
    const down = connect(`redis://127.0.0.1:${await freePort()}`);
    await down.connect().catch(() => {});
    const errors: Error[] = [];
    const store = new RedisBuckets(down, "test-tb-down:", (e) => errors.push(e));
    expect((await takes(store, "k", 5)).map((t) => t.ok)).toEqual([true, true, true, false, false]);
    expect(errors).toHaveLength(5);
  });
});
