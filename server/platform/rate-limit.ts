// Per-client-IP rate limits for public writes. In-process by default; shared through
// Redis (redis.ts) when REDIS_URL is set, so several instances count together. Routes opt in with
// `config.rateLimit`; a refusal reaches the route scope's error handler as a 429 in its protocol's shape.
import rateLimit from "@fastify/rate-limit";
import type { FastifyInstance } from "fastify";
import fp from "fastify-plugin";
import { clientKey } from "./addresses.ts";

export default fp(
  async function rateLimits(app: FastifyInstance) {
    await app.register(rateLimit, {
      global: false,
      redis: app.redis,
      nameSpace: "revwise-rl:",
      // One count per client: an IPv6 client's /64, an IPv4 client however its address is written.
      keyGenerator: (request) => clientKey(request.ip),
      // When the shared store is unreachable, fail open rather than refuse every visitor.
      skipOnError: true,
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

/** The limits of the lead forms and the captcha (the auth service has its own: auth/rate-limits.ts). */
export const LIMITS = {
  form: { max: 10, timeWindow: 60_000 },
  captchaChallenge: { max: 60, timeWindow: 60_000 },
} as const;
