// Budgets for the emails a visitor can make the site send to an address they typed (account
// emails, the lead forms' replies: the demo email, the newsletter's confirmation): so many an hour
// per client (an IPv4 address, an IPv6 client's /64: clientKey), so many for the whole site for
// each of the two kinds (so that the forms cannot starve sign-ups and recoveries, nor these the
// forms), and at most one email per purpose and address within that purpose's repeat window.
// Counted in Redis when REDIS_URL is set (every instance spends the same budgets), else in this
// process; when Redis fails, this process's own counts apply rather than none. A claim whose
// email was never queued (storing what it belongs to failed) is given back: the visitor's retry
// sends it, rather than being taken for a repeat of an email that never went.
import type { FastifyInstance } from "fastify";
import crypto from "node:crypto";
import fp from "fastify-plugin";
import { clientKey } from "../platform/addresses.ts";
import { redisFailureLog } from "../platform/redis.ts";

const WINDOW_MS = 3_600_000;

/** ok and send: charged, send it; ok and not send: a repeat, send nothing new; not ok: refuse. */
export type EmailClaim = { ok: true; send: boolean } | { ok: false; retryAfterSeconds: number };

/** Whose site-wide budget an email spends: the auth service's, or the lead forms'. */
export type EmailFamily = "account" | "lead";

export type EmailRequest = {
  family: EmailFamily;
  /** What the email is for (its kind): repeats are counted per purpose and address. */
  purpose: string;
  to: string;
  repeatSeconds: number;
};

export type EmailBudget = {
  /**
   * Spends one email of the client's and the site's budgets, unless it is a repeat. The budgets
   * are checked first, so a refusal says nothing about who asked for this address before.
   */
  claim(client: { ip: string }, email: EmailRequest): Promise<EmailClaim>;
  /**
   * Claims as `claim` does, then runs `work`, which queues the email when the claim says send.
   * `work` throws only when it queued nothing (its statement or transaction failed); a claim to
   * send is then given back (the address is no longer marked as emailed, the client's and the
   * site's counts are refunded), so that the visitor's retry sends the email. A repeat asked
   * while `work` runs is still a repeat: at most one email goes.
   */
  spend<T>(
    client: { ip: string },
    email: EmailRequest,
    work: (claim: EmailClaim) => Promise<T>,
  ): Promise<T>;
};

declare module "fastify" {
  interface FastifyInstance {
    emailBudget: EmailBudget;
  }
}

type Limits = { perIp: number; site: number };
type Keys = { ip: string; site: string; recent: string };

/**
 * The counts of one process: fixed one-hour windows and the addresses emailed recently, each
 * marked with its claim's token (a claim given back removes its own mark, never a later one).
 */
class MemoryCounts {
  private readonly counters = new Map<string, { n: number; resetAt: number }>();
  private readonly recent = new Map<string, { until: number; token: string }>();

  claim(keys: Keys, limits: Limits, repeatMs: number, token: string): EmailClaim {
    const now = Date.now();
    this.prune(now);
    for (const [key, max] of [
      [keys.ip, limits.perIp],
      [keys.site, limits.site],
    ] as const) {
      const c = this.counters.get(key);
      if (c && c.resetAt > now && c.n >= max)
        return { ok: false, retryAfterSeconds: Math.max(1, Math.ceil((c.resetAt - now) / 1000)) };
    }
    if ((this.recent.get(keys.recent)?.until ?? 0) > now) return { ok: true, send: false };
    for (const key of [keys.ip, keys.site]) {
      const c = this.counters.get(key);
      if (c && c.resetAt > now) c.n++;
      else this.counters.set(key, { n: 1, resetAt: now + WINDOW_MS });
    }
    this.recent.set(keys.recent, { until: now + repeatMs, token });
    return { ok: true, send: true };
  }

  /** Gives back the claim `token` made, while its mark stands: what GIVE_BACK_SCRIPT does. */
  giveBack(keys: Keys, token: string) {
    const now = Date.now();
    const mark = this.recent.get(keys.recent);
    if (mark?.token !== token || mark.until <= now) return;
    this.recent.delete(keys.recent);
    for (const key of [keys.ip, keys.site]) {
      const c = this.counters.get(key);
      if (c && c.resetAt > now && c.n > 0) c.n--;
    }
  }

  /** Entries exist only for emails sent, so they are few; expired ones go once there are many. */
  private prune(now: number) {
    if (this.counters.size + this.recent.size < 10_000) return;
    for (const [k, c] of this.counters) if (c.resetAt <= now) this.counters.delete(k);
    for (const [k, mark] of this.recent) if (mark.until <= now) this.recent.delete(k);
  }
}

// The same steps as MemoryCounts.claim, atomic in Redis: {0, ttl ms} refused, {1} repeat, {2} send.
const CLAIM_SCRIPT = `
for i = 1, 2 do
  local n = tonumber(redis.call('GET', KEYS[i]) or '0')
  if n >= tonumber(ARGV[i]) then return {0, redis.call('PTTL', KEYS[i])} end
end
if redis.call('EXISTS', KEYS[3]) == 1 then return {1, 0} end
for i = 1, 2 do
  if redis.call('INCR', KEYS[i]) == 1 then redis.call('PEXPIRE', KEYS[i], ARGV[3]) end
end
redis.call('SET', KEYS[3], ARGV[5], 'PX', ARGV[4])
return {2, 0}`;

// MemoryCounts.giveBack, atomic in Redis: while the address's mark is this claim's token, removes
// it and refunds the client's and the site's counts (DECR keeps their window's expiry).
const GIVE_BACK_SCRIPT = `
if redis.call('GET', KEYS[3]) ~= ARGV[1] then return 0 end
redis.call('DEL', KEYS[3])
for i = 1, 2 do
  if tonumber(redis.call('GET', KEYS[i]) or '0') > 0 then redis.call('DECR', KEYS[i]) end
end
return 1`;

export default fp(
  async function emailBudget(app: FastifyInstance) {
    const limits: Record<EmailFamily, Limits> = {
      account: { perIp: app.config.emailsPerIpPerHour, site: app.config.emailsPerHour },
      lead: { perIp: app.config.emailsPerIpPerHour, site: app.config.leadEmailsPerHour },
    };
    // Budgets belong to a site: deployments sharing one Redis count apart.
    const prefix = `revwise-email:${app.config.siteUrl}:`;
    const memory = new MemoryCounts();
    const { redis } = app;
    const redisFailed = redisFailureLog(app.log, "email budgets");

    /** A claim, with how to give it back: where it was counted (Redis, or here) and its token. */
    async function claimed(
      client: { ip: string },
      email: EmailRequest,
    ): Promise<{ claim: EmailClaim; giveBack: () => Promise<void> }> {
      const keys: Keys = {
        ip: `${prefix}ip:${clientKey(client.ip)}`,
        site: `${prefix}site:${email.family}`,
        recent: `${prefix}to:${email.purpose}:${email.to.toLowerCase()}`,
      };
      const family = limits[email.family];
      const repeatMs = email.repeatSeconds * 1000;
      const token = crypto.randomUUID();
      if (redis) {
        try {
          const [outcome, ttl] = (await redis.eval(
            CLAIM_SCRIPT,
            3,
            keys.ip,
            keys.site,
            keys.recent,
            family.perIp,
            family.site,
            WINDOW_MS,
            repeatMs,
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
              await redis.eval(GIVE_BACK_SCRIPT, 3, keys.ip, keys.site, keys.recent, token);
            },
          };
        } catch (err) {
          redisFailed(err as Error);
        }
      }
      const claim = memory.claim(keys, family, repeatMs, token);
      return { claim, giveBack: async () => memory.giveBack(keys, token) };
    }

    app.decorate("emailBudget", {
      async claim(client, email) {
        return (await claimed(client, email)).claim;
      },
      async spend(client, email, work) {
        const { claim, giveBack } = await claimed(client, email);
        try {
          return await work(claim);
        } catch (err) {
          if (claim.ok && claim.send)
            await giveBack().catch((failure: Error) =>
              // Not given back: a retry within the repeat window sends nothing.
              app.log.error({ err: failure }, "email budget: a claim could not be given back"),
            );
          throw err;
        }
      },
    } satisfies EmailBudget);
  },
  { name: "email-budget", dependencies: ["services", "redis"] },
);
