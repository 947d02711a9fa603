// Refilling buckets (token buckets), one per key: a bucket holds up to `capacity` requests and
// refills at `perSecond`, so a client may burst up to the capacity and then keeps the steady rate.
// Kept in this process's memory, or in Redis when REDIS_URL is set (one atomic script per take,
// timed by Redis's clock), so that several instances share each bucket. When Redis cannot be
// reached, this process counts on its own (refusing every visitor would be worse, and letting
// every request through would lift the limits).
import type { Redis } from "ioredis";

export type BucketRule = { capacity: number; perSecond: number };
export type Take = { ok: true } | { ok: false; retryAfterSeconds: number };

export interface BucketStore {
  take(key: string, rule: BucketRule): Promise<Take>;
}

/** Buckets kept beyond this many are forgotten oldest first (a forgotten bucket is full again). */
const MEMORY_BUCKETS = 100_000;

export class MemoryBuckets implements BucketStore {
  private readonly buckets = new Map<string, { tokens: number; at: number }>();
  private readonly now: () => number;

  constructor(now: () => number = Date.now) {
    this.now = now;
  }

  async take(key: string, rule: BucketRule): Promise<Take> {
    const now = this.now();
    const bucket = this.buckets.get(key);
    const tokens = bucket
      ? Math.min(rule.capacity, bucket.tokens + ((now - bucket.at) / 1000) * rule.perSecond)
      : rule.capacity;
    const ok = tokens >= 1;
    // Re-inserted, so the map's order is the order of last use.
    this.buckets.delete(key);
    this.buckets.set(key, { tokens: ok ? tokens - 1 : tokens, at: now });
    if (this.buckets.size > MEMORY_BUCKETS) this.buckets.delete(this.buckets.keys().next().value!);
    return ok ? { ok } : { ok, retryAfterSeconds: retryAfter(tokens, rule) };
  }
}

const TAKE_SCRIPT = `
local capacity = tonumber(ARGV[1])
local rate = tonumber(ARGV[2])
local time = redis.call('TIME')
local now = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)
local state = redis.call('HMGET', KEYS[1], 't', 'at')
local tokens = tonumber(state[1])
if tokens == nil then
  tokens = capacity
else
  tokens = math.min(capacity, tokens + (now - tonumber(state[2])) / 1000 * rate)
end
local ok = 0
if tokens >= 1 then
  tokens = tokens - 1
  ok = 1
end
redis.call('HSET', KEYS[1], 't', tostring(tokens), 'at', tostring(now))
redis.call('PEXPIRE', KEYS[1], math.ceil((capacity - tokens) / rate * 1000) + 1000)
return {ok, tostring(tokens)}
`;

export class RedisBuckets implements BucketStore {
  private readonly redis: Redis;
  private readonly prefix: string;
  private readonly onError: (err: Error) => void;
  private readonly fallback = new MemoryBuckets();

  constructor(redis: Redis, prefix: string, onError: (err: Error) => void) {
    this.redis = redis;
    this.prefix = prefix;
    this.onError = onError;
  }

  async take(key: string, rule: BucketRule): Promise<Take> {
    try {
      const [ok, tokens] = (await this.redis.eval(
        TAKE_SCRIPT,
        1,
        this.prefix + key,
        rule.capacity,
        rule.perSecond,
      )) as [number, string];
      return ok === 1
        ? { ok: true }
        : { ok: false, retryAfterSeconds: retryAfter(Number(tokens), rule) };
    } catch (err) {
      this.onError(err as Error);
      return this.fallback.take(key, rule);
    }
  }
}

/** Whole seconds until the bucket holds a request again. */
function retryAfter(tokens: number, rule: BucketRule): number {
  return Math.max(1, Math.ceil((1 - tokens) / rule.perSecond));
}

/** Buckets shared by every instance through Redis when there is one, else this process's own. */
export function bucketStore(
  redis: Redis | undefined,
  prefix: string,
  onError: (err: Error) => void,
): BucketStore {
  return redis ? new RedisBuckets(redis, prefix, onError) : new MemoryBuckets();
}
