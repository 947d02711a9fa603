// Budgets for the emails a visitor can make the site send to an address they typed (account
// emails, the lead forms' replies: the demo email, the newsletter's confirmation) and for every
// text message: so many an hour per client (an IPv4 address, an IPv6 client's /64: clientKey), so
// many for the whole site for each of the three kinds (so that the forms cannot starve sign-ups
// and recoveries, nor these the forms, nor texts either), for a text so many per person (the
// account asking, the number texted), and at most one message per purpose and address within
// that purpose's repeat window.
// Counted in Redis when REDIS_URL is set (every instance spends the same budgets), else in this
// process; when Redis fails, this process's own counts apply rather than none. A claim whose
// email was never queued (storing what it belongs to failed) is given back: the visitor's retry
// sends it, rather than being taken for a repeat of an email that never went.
import type { FastifyBaseLogger, FastifyInstance } from "fastify";
import crypto from "node:crypto";
import fp from "fastify-plugin";
import { clientKey } from "../platform/addresses.ts";
import { redisFailureLog } from "../platform/redis.ts";
import { rateLimitRefusals } from "../metrics/metrics.ts";

const WINDOW_MS = 3_600_000;
/** How long a claim without a repeat window can be given back. */
const GIVE_BACK_MS = 600_000;

/** ok and send: charged, send it; ok and not send: a repeat, send nothing new; not ok: refuse. */
type EmailClaim = { ok: true; send: boolean } | { ok: false; retryAfterSeconds: number };

/** Whose site-wide budget a message spends: the auth service's emails, the lead forms', or texts. */
type EmailFamily = "account" | "lead" | "text";

type EmailRequest = {
  family: EmailFamily;
  /** What the message is for (its kind): repeats are counted per purpose and address. */
  purpose: string;
  to: string;
  /** 0: no repeat window (every claim is charged; its caller limits repeats itself). */
  repeatSeconds: number;
  /**
   * A text's people, each with a budget of its own: the number texted, and the account that asked
   * when known (a signed-in request). Emails have none.
   */
  people?: string[];
};

type EmailBudget = {
  /**
   * Spends one message of the client's, the site's (and its people's) budgets, unless it is a
   * repeat. The budgets are checked first, so a refusal says nothing about who asked for this
   * address before.
   */
  claim(client: { ip: string }, email: EmailRequest): Promise<EmailClaim>;
  /**
   * Claims as `claim` does, then runs `work`, which queues the email when the claim says send.
   * `work` throws only when it queued nothing (its statement or transaction failed); a claim to
   * send is then given back (the address is no longer marked as emailed, the counts are
   * refunded), so that the visitor's retry sends the email. A repeat asked while `work` runs is
   * still a repeat: at most one email goes.
   */
  spend<T>(
    client: { ip: string; log?: FastifyBaseLogger },
    email: EmailRequest,
    work: (claim: EmailClaim) => Promise<T>,
  ): Promise<T>;
};

declare module "fastify" {
  interface FastifyInstance {
    emailBudget: EmailBudget;
  }
}

type Limits = { perIp: number; site: number; perPerson: number };
/** The hourly counts a claim spends, each with its limit, and the key that marks its address. */
type Keys = { counts: { key: string; max: number }[]; recent: string };

/**
 * The counts of one process: fixed one-hour windows and the addresses messaged recently, each
 * marked with its claim's token (a claim given back removes its own mark, never a later one).
 */
class MemoryCounts {
  private readonly counters = new Map<string, { n: number; resetAt: number }>();
  private readonly recent = new Map<string, { until: number; token: string }>();

  claim(keys: Keys, repeatMs: number, token: string): EmailClaim {
    const now = Date.now();
    this.prune(now);
    for (const { key, max } of keys.counts) {
      const c = this.counters.get(key);
      if (c && c.resetAt > now && c.n >= max)
        return { ok: false, retryAfterSeconds: Math.max(1, Math.ceil((c.resetAt - now) / 1000)) };
    }
    if (repeatMs > 0 && (this.recent.get(keys.recent)?.until ?? 0) > now)
      return { ok: true, send: false };
    for (const { key } of keys.counts) {
      const c = this.counters.get(key);
      if (c && c.resetAt > now) c.n++;
      else this.counters.set(key, { n: 1, resetAt: now + WINDOW_MS });
    }
    this.recent.set(keys.recent, { until: now + (repeatMs || GIVE_BACK_MS), token });
    return { ok: true, send: true };
  }

  /** Gives back the claim `token` made, while its mark stands: what GIVE_BACK_SCRIPT does. */
  giveBack(keys: Keys, token: string) {
    const now = Date.now();
    const mark = this.recent.get(keys.recent);
    if (mark?.token !== token || mark.until <= now) return;
    this.recent.delete(keys.recent);
    for (const { key } of keys.counts) {
      const c = this.counters.get(key);
      if (c && c.resetAt > now && c.n > 0) c.n--;
    }
  }

  /** Entries exist only for messages sent, so they are few; expired ones go once there are many. */
  private prune(now: number) {
    if (this.counters.size + this.recent.size < 10_000) return;
    for (const [k, c] of this.counters) if (c.resetAt <= now) this.counters.delete(k);
    for (const [k, mark] of this.recent) if (mark.until <= now) this.recent.delete(k);
  }
}

// The same steps as MemoryCounts.claim, atomic in Redis, over the n counts (KEYS[1..n], their
// limits ARGV[1..n]) and the address's mark (KEYS[n+1]): {0, ttl ms} refused, {1} repeat, {2} send.
const CLAIM_SCRIPT = `
local n = #KEYS - 1
local window, repeatMs, markMs, token = ARGV[n + 1], tonumber(ARGV[n + 2]), ARGV[n + 3], ARGV[n + 4]
for i = 1, n do
  local c = tonumber(redis.call('GET', KEYS[i]) or '0')
  if c >= tonumber(ARGV[i]) then return {0, redis.call('PTTL', KEYS[i])} end
end
if repeatMs > 0 and redis.call('EXISTS', KEYS[n + 1]) == 1 then return {1, 0} end
for i = 1, n do
  if redis.call('INCR', KEYS[i]) == 1 then redis.call('PEXPIRE', KEYS[i], window) end
end
redis.call('SET', KEYS[n + 1], token, 'PX', markMs)
return {2, 0}`;

// MemoryCounts.giveBack, atomic in Redis: while the address's mark is this claim's token, removes
// it and refunds the counts (DECR keeps their window's expiry).
const GIVE_BACK_SCRIPT = `
local n = #KEYS - 1
if redis.call('GET', KEYS[n + 1]) ~= ARGV[1] then return 0 end
redis.call('DEL', KEYS[n + 1])
for i = 1, n do
  if tonumber(redis.call('GET', KEYS[i]) or '0') > 0 then redis.call('DECR', KEYS[i]) end
end
return 1`;

export default fp(
  async function emailBudget(app: FastifyInstance) {
    const { config } = app;
    const limits: Record<EmailFamily, Limits> = {
      account: { perIp: config.emailsPerIpPerHour, site: config.emailsPerHour, perPerson: 0 },
      lead: { perIp: config.emailsPerIpPerHour, site: config.leadEmailsPerHour, perPerson: 0 },
      text: {
        perIp: config.emailsPerIpPerHour,
        site: config.textsPerHour,
        perPerson: config.textsPerPersonPerHour,
      },
    };
    // Budgets belong to a site: deployments sharing one Redis count apart.
    const prefix = `revwise-email:${config.siteUrl}:`;
    const memory = new MemoryCounts();
    const { redis } = app;
    const redisFailed = redisFailureLog(app.log, "email budgets");

    /** A claim, with how to give it back: where it was counted (Redis, or here) and its token. */
    async function claimed(
      client: { ip: string },
      email: EmailRequest,
    ): Promise<{ claim: EmailClaim; giveBack: () => Promise<void> }> {
      const family = limits[email.family];
      const token = crypto.randomUUID();
      const keys: Keys = {
        counts: [
          { key: `${prefix}ip:${clientKey(client.ip)}`, max: family.perIp },
          { key: `${prefix}site:${email.family}`, max: family.site },
          ...(email.people ?? []).map((person) => ({
            key: `${prefix}person:${person}`,
            max: family.perPerson,
          })),
        ],
        // Without a repeat window, the mark only lets this claim be given back.
        recent:
          email.repeatSeconds > 0
            ? `${prefix}to:${email.purpose}:${email.to.toLowerCase()}`
            : `${prefix}claim:${token}`,
      };
      const repeatMs = email.repeatSeconds * 1000;
      if (redis) {
        try {
          const redisKeys = [...keys.counts.map((c) => c.key), keys.recent];
          const [outcome, ttl] = (await redis.eval(
            CLAIM_SCRIPT,
            redisKeys.length,
            ...redisKeys,
            ...keys.counts.map((c) => c.max),
            WINDOW_MS,
            repeatMs,
            repeatMs || GIVE_BACK_MS,
            token,
          )) as [number, number];
          const claim: EmailClaim =
            outcome === 0
              ? {
                  ok: false,
                  retryAfterSeconds: Math.max(1, Math.ceil((ttl > 0 ? ttl : WINDOW_MS) / 1000)),
                }
              : { ok: true, send: outcome === 2 };
          return {
            claim,
            giveBack: async () => {
              await redis.eval(GIVE_BACK_SCRIPT, redisKeys.length, ...redisKeys, token);
            },
          };
        } catch (err) {
          redisFailed(err as Error);
        }
      }
      const claim = memory.claim(keys, repeatMs, token);
      return { claim, giveBack: async () => memory.giveBack(keys, token) };
    }

    /** A claim, a refusal counted by the family whose budget refused it. */
    async function counted(client: { ip: string }, email: EmailRequest) {
      const result = await claimed(client, email);
      if (!result.claim.ok) rateLimitRefusals.inc({ limit: `${email.family}_budget` });
      return result;
    }

    app.decorate("emailBudget", {
      async claim(client, email) {
        return (await counted(client, email)).claim;
      },
      async spend(client, email, work) {
        const { claim, giveBack } = await counted(client, email);
        try {
          return await work(claim);
        } catch (err) {
          if (claim.ok && claim.send)
            await giveBack().catch((failure: Error) =>
              // Not given back: a retry within the repeat window sends nothing.
              (client.log ?? app.log).error(
                { err: failure },
                "email budget: a claim could not be given back",
              ),
            );
          throw err;
        }
      },
    } satisfies EmailBudget);
  },
  { name: "email-budget", dependencies: ["services", "redis"] },
);
