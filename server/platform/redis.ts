// The shared store of several instances: one Redis connection when REDIS_URL is set (rate limits
// and email budgets count through it), none otherwise (each instance counts in its own memory).
import type { Redis } from "ioredis";
import type { FastifyInstance } from "fastify";
import fp from "fastify-plugin";

declare module "fastify" {
  interface FastifyInstance {
    redis: Redis | undefined;
  }
}

export default fp(
  async function redisConnection(app: FastifyInstance, opts: { redisUrl: string | undefined }) {
    // ioredis is loaded only when a shared store is configured.
    const redis = opts.redisUrl
      ? new (await import("ioredis")).Redis(opts.redisUrl, {
          connectTimeout: 2000,
          maxRetriesPerRequest: 1,
          enableOfflineQueue: false,
          lazyConnect: true,
        })
      : undefined;
    if (redis) {
      await redis.connect();
      redis.on("error", (err: Error) => app.log.warn({ err: err.message }, "redis error"));
      app.addHook("onClose", async () => {
        await redis.quit().catch(() => redis.disconnect());
      });
    }
    app.decorate("redis", redis);
  },
  { name: "redis" },
);
