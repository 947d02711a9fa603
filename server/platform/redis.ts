// The shared store of several instances: one Redis connection when REDIS_URL is set (rate limits
// and email budgets count through it), none otherwise (each instance counts in its own memory).
// At start the connection must work: an unreachable Redis, or one that refuses REDIS_URL's
// database, stops the start with one line naming REDIS_URL. Once started, an outage is tolerated
// (the callers count in memory meanwhile) and ioredis reconnects on its own.
import type { Redis } from "ioredis";
import type { FastifyBaseLogger, FastifyInstance } from "fastify";
import fp from "fastify-plugin";

declare module "fastify" {
  interface FastifyInstance {
    redis: Redis | undefined;
  }
}

/** Where REDIS_URL points, for a message: host and port, never its user or password. */
function redisAddress(redisUrl: string): string {
  const url = new URL(redisUrl);
  return `${url.hostname}:${url.port || "6379"}`;
}

/** What stopped the start, in one line naming REDIS_URL and the address. */
function startFailure(redisUrl: string, err: Error): Error {
  const where = `Redis at ${redisAddress(redisUrl)} (REDIS_URL)`;
  // A reply error carries the command Redis refused (ioredis's ReplyError).
  const command = (err as Error & { command?: { name?: string; args?: unknown[] } }).command;
  if (command?.name === "select")
    return new Error(`${where} refused database ${String(command.args?.[0])}: ${err.message}`);
  if (command?.name)
    return new Error(`${where} refused ${command.name.toUpperCase()}: ${err.message}`);
  return new Error(`${where} cannot be reached: ${err.message}`);
}

/**
 * What a caller counting in Redis logs when a Redis call fails and it counts in this process
 * instead: at most one line a minute per caller, not one per request (a client could otherwise
 * fill the log during an outage).
 */
export function redisFailureLog(log: FastifyBaseLogger, what: string): (err: Error) => void {
  let loggedAt = -Infinity;
  return (err) => {
    const now = Date.now();
    if (now - loggedAt < 60_000) return;
    loggedAt = now;
    log.warn({ err: err.message }, `${what}: redis failed, counting here meanwhile`);
  };
}

export default fp(
  async function redisConnection(app: FastifyInstance, opts: { redisUrl: string | undefined }) {
    if (!opts.redisUrl) {
      app.decorate("redis", undefined);
      return;
    }
    // ioredis is loaded only when a shared store is configured.
    const { Redis } = await import("ioredis");
    const redis = new Redis(opts.redisUrl, {
      connectTimeout: 2000,
      // A Redis that takes the connection but no longer answers fails a command in a second, and
      // the callers' in-process counts take over, rather than every request waiting on it.
      commandTimeout: 1000,
      maxRetriesPerRequest: 1,
      enableOfflineQueue: false,
      lazyConnect: true,
    });
    // Until the connection is ready, an error belongs to the start: kept for its message (without
    // a listener ioredis prints it with a stack). A refused SELECT is only reported this way:
    // ioredis would go on with database 0.
    let startError: Error | undefined;
    const onStartError = (err: Error) => {
      startError ??= err;
    };
    redis.on("error", onStartError);
    try {
      await redis.connect();
    } catch (err) {
      startError ??= err as Error;
    }
    if (startError) {
      redis.disconnect(); // no reconnection attempts behind the failed start
      throw startFailure(opts.redisUrl, startError);
    }
    redis.off("error", onStartError);
    redis.on("error", (err: Error) => app.log.warn({ err: err.message }, "redis error"));
    app.addHook("onClose", async () => {
      await redis.quit().catch(() => redis.disconnect());
    });
    app.decorate("redis", redis);
  },
  { name: "redis" },
);
