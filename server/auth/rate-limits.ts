// GoTrue's rate limits of /auth/v1: a refilling bucket per endpoint and client IP (not one window
// shared by every endpoint), each configurable and each can be turned off (0). A client may burst
// up to 30 requests (or the limit, when smaller) and then keeps the configured rate. A refusal is
// GoTrue's 429 over_request_rate_limit with Retry-After.
import type { FastifyInstance, FastifyRequest } from "fastify";
import type { Config } from "../config.ts";
import { clientKey } from "../platform/addresses.ts";
import { bucketStore, type BucketRule } from "../platform/token-bucket.ts";
import { ErrorCode, tooMany } from "./errors.ts";
import { redisFailureLog } from "../platform/redis.ts";
import { rateLimitRefusals } from "../metrics/metrics.ts";

/** The buckets: one per endpoint that GoTrue limits (the "otp" family shares a rate, not a bucket). */
export type AuthBucket =
  | "token"
  | "web3"
  | "verify"
  | "signup"
  | "recover"
  | "resend"
  | "magiclink"
  | "otp"
  | "user"
  | "reauthenticate"
  | "factor_challenge"
  | "factor_verify"
  | "anonymous"
  | "sso"
  | "saml_assertion"
  | "passkey"
  | "oauth_register";

const BURST = 30;
const FIVE_MINUTES = 300;

function rules(limits: Config["authRateLimits"]): Record<AuthBucket, BucketRule | undefined> {
  const rule = (count: number, seconds: number, burst = BURST): BucketRule | undefined =>
    count === 0
      ? undefined
      : { capacity: Math.max(1, Math.min(burst, count)), perSecond: count / seconds };
  const otp = rule(limits.otp, FIVE_MINUTES);
  return {
    token: rule(limits.token, FIVE_MINUTES),
    // GOTRUE_RATE_LIMIT_WEB3 at GoTrue's default: web3 is off here, so only its refusal counts.
    web3: rule(30, FIVE_MINUTES),
    verify: rule(limits.verify, FIVE_MINUTES),
    signup: otp,
    recover: otp,
    resend: otp,
    magiclink: otp,
    otp,
    user: otp,
    reauthenticate: otp,
    factor_challenge: rule(limits.mfa, 60),
    factor_verify: rule(limits.mfa, 60),
    anonymous: rule(limits.anonymous, 3600, limits.anonymous),
    sso: rule(limits.sso, FIVE_MINUTES),
    saml_assertion: rule(limits.samlAssertion, FIVE_MINUTES),
    passkey: rule(limits.passkey, FIVE_MINUTES),
    // GOTRUE_RATE_LIMIT_OAUTH_DYNAMIC_CLIENT_REGISTER at GoTrue's default (10 per 5 minutes).
    oauth_register: rule(10, FIVE_MINUTES),
  };
}

export type AuthRateLimits = {
  /** Takes a request from the bucket, or answers 429 (for a handler that picks its bucket late). */
  take(bucket: AuthBucket, request: FastifyRequest): Promise<void>;
  /** The same as an onRequest hook of a route. */
  hook(bucket: AuthBucket): (request: FastifyRequest) => Promise<void>;
};

export function authRateLimits(app: FastifyInstance): AuthRateLimits {
  const byBucket = rules(app.config.authRateLimits);
  // Scoped by the site, as the email budgets are: deployments sharing one Redis count apart.
  const store = bucketStore(
    app.redis,
    `revwise-auth-rl:${app.config.siteUrl}:`,
    redisFailureLog(app.log, "auth rate limits"),
  );
  async function take(bucket: AuthBucket, request: FastifyRequest) {
    const rule = byBucket[bucket];
    if (!rule) return;
    const taken = await store.take(`${bucket}:${clientKey(request.ip)}`, rule);
    if (!taken.ok) {
      rateLimitRefusals.inc({ limit: `auth_${bucket}` });
      throw tooMany(
        ErrorCode.over_request_rate_limit,
        "Request rate limit reached",
        taken.retryAfterSeconds,
      );
    }
  }
  return { take, hook: (bucket) => (request) => take(bucket, request) };
}
