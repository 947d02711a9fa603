// Per-client-IP rate limits for public writes. In-process by default; shared through
// Redis (redis.ts) when REDIS_URL is set, so several instances count together, and counted in this
// process while Redis cannot be reached (letting every request through would lift the limits).
// Routes opt in with `config.rateLimit`; a refusal reaches the route scope's error handler as a
// 429 in its protocol's shape.
import rateLimit, {
  type FastifyRateLimitStore,
  type FastifyRateLimitStoreCtor,
} from "@fastify/rate-limit";
import type { FastifyInstance } from "fastify";
import fp from "fastify-plugin";
import type { Redis } from "ioredis";
import { createRequire } from "node:module";
import { clientKey } from "./addresses.ts";
import { rateLimitRefusals } from "../metrics/metrics.ts";
import { redisFailureLog } from "./redis.ts";

type Store = FastifyRateLimitStore & { read?: FastifyRateLimitStore["incr"] };
type Counted = Parameters<Store["incr"]>[1];
type StoreClass = new (...args: unknown[]) => Store;

// The plugin's own stores (its package exports only the plugin).
const require = createRequire(import.meta.url);
const RedisStore = require("@fastify/rate-limit/store/RedisStore.js") as StoreClass;
const LocalStore = require("@fastify/rate-limit/store/LocalStore.js") as StoreClass;

/**
 * The store counting in Redis, and in this process's own store whenever a Redis count fails
 * (told to `onError`).
 */
function sharedOrLocal(redis: Redis, nameSpace: string, onError: (err: Error) => void) {
  const pair = (shared: Store, local: Store): Store => {
    const either =
      (method: "incr" | "read") => (key: string, cb: Counted, timeWindow: number, max: number) =>
        shared[method]!(
          key,
          (err, result) => {
            if (!err) return cb(null, result);
            onError(err);
            local[method]!(key, cb, timeWindow, max);
          },
          timeWindow,
          max,
        );
    return {
      incr: either("incr"),
      read: either("read"),
      child: (routeOptions) => pair(shared.child(routeOptions), local.child(routeOptions)),
    };
  };
  // The plugin makes its store with `new`, from its own parameters.
  return function SharedOrLocal(params: {
    continueExceeding?: boolean;
    exponentialBackoff?: boolean;
  }) {
    const { continueExceeding, exponentialBackoff } = params;
    return pair(
      new RedisStore(continueExceeding, exponentialBackoff, redis, nameSpace),
      new LocalStore(continueExceeding, exponentialBackoff),
    );
  } as unknown as FastifyRateLimitStoreCtor;
}

export default fp(
  async function rateLimits(app: FastifyInstance) {
    const { redis } = app;
    await app.register(rateLimit, {
      global: false,
      ...(redis && {
        store: sharedOrLocal(redis, "revwise-rl:", redisFailureLog(app.log, "form limits")),
      }),
      // One count per client: an IPv6 client's /64, an IPv4 client however its address is written.
      keyGenerator: (request) => clientKey(request.ip),
      // Allowed requests carry no x-ratelimit-* headers (work on every request for no reader);
      // a refusal says when to come back (Retry-After).
      addHeadersOnExceeding: {
        "x-ratelimit-limit": false,
        "x-ratelimit-remaining": false,
        "x-ratelimit-reset": false,
      },
      addHeaders: {
        "x-ratelimit-limit": false,
        "x-ratelimit-remaining": false,
        "x-ratelimit-reset": false,
        "retry-after": true,
      },
      errorResponseBuilder: (_request, context) => {
        const err = new Error(`Rate limit exceeded, retry in ${context.after}`) as Error & {
          statusCode: number;
          retryAfter: number;
        };
        err.statusCode = 429;
        err.retryAfter = Math.ceil(context.ttl / 1000);
        return err;
      },
    });
  },
  { name: "rate-limits", dependencies: ["redis"] },
);

/** A limit of `max` requests per `timeWindow` ms, each refusal counted under its name. */
const limit = (name: string, max: number, timeWindow: number) => ({
  max,
  timeWindow,
  onExceeded: () => rateLimitRefusals.inc({ limit: name }),
});

/** The limits of the lead forms and the captcha (the auth service has its own: auth/rate-limits.ts). */
export const LIMITS = {
  form: limit("form", 10, 60_000),
  captchaChallenge: limit("captcha_challenge", 60, 60_000),
  /** The account page's own functions that check a password or a code, or gather a download. */
  account: limit("account", 10, 60_000),
} as const;
