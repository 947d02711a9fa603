// Real Redis for the shared rate-limit tests (loud skip on a developer machine without it;
// a failure under CI=true).
import { Redis } from "ioredis";
import { answers } from "./requirements.ts";

export const TEST_REDIS_URL = process.env.TEST_REDIS_URL ?? "redis://127.0.0.1:6379";

export async function redisAvailable(): Promise<boolean> {
  const redis = new Redis(TEST_REDIS_URL, {
    lazyConnect: true,
    connectTimeout: 2000,
    maxRetriesPerRequest: 0,
    retryStrategy: () => null,
  });
  redis.on("error", () => {});
  try {
    return await answers(
      `Redis at ${TEST_REDIS_URL}`,
      "start redis-server or set TEST_REDIS_URL",
      async () => {
        await redis.connect();
        await redis.ping();
      },
    );
  } finally {
    redis.disconnect();
  }
}
