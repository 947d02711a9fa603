// Budgets for the emails a visitor can make the site send to an address they typed (account
// emails, the lead forms' replies: the demo email, the newsletter's confirmation): so many an hour
// per client (an IPv4 address, an IPv6 client's /64: clientKey), so many for the whole site for
// each of the two kinds (so that the forms cannot starve sign-ups and recoveries, nor these the
// forms), and at most one email per purpose and address within that purpose's repeat window.
// Counted in Redis when REDIS_URL is set (every instance spends the same budgets), else in this
// process; when Redis fails, this process's own counts apply rather than none.
import type { FastifyInstance } from "fastify";
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
};

declare module "fastify" {
  interface FastifyInstance {
    emailBudget: EmailBudget;
  }
}

type Limits = { perIp: number; site: number };
type Keys = { ip: string; site: string; recent: string };

/** The counts of one process: fixed one-hour windows and the addresses emailed recently. */
class MemoryCounts {
  private readonly counters = new Map<string, { n: number; resetAt: number }>();
  private readonly recent = new Map<string, number>();

  claim(keys: Keys, limits: Limits, repeatMs: number): EmailClaim {
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
    if ((this.recent.get(keys.recent) ?? 0) > now) return { ok: true, send: false };
    for (const key of [keys.ip, keys.site]) {
      const c = this.counters.get(key);
      if (c && c.resetAt > now) c.n++;
      else this.counters.set(key, { n: 1, resetAt: now + WINDOW_MS });
    }
    this.recent.set(keys.recent, now + repeatMs);
    return { ok: true, send: true };
  }

  /** Entries exist only for emails sent, so they are few; expired ones go once there are many. */
  private prune(now: number) {
    if (this.counters.size + this.recent.size < 10_000) return;
    for (const [k, c] of this.counters) if (c.resetAt <= now) this.counters.delete(k);
    for (const [k, until] of this.recent) if (until <= now) this.recent.delete(k);
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
redis.call('SET', KEYS[3], '1', 'PX', ARGV[4])
return {2, 0}`;

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

    app.decorate("emailBudget", {
      async claim(client, email) {
        const family = limits[email.family];
        const keys: Keys = {
          ip: `${prefix}ip:${clientKey(client.ip)}`,
          site: `${prefix}site:${email.family}`,
          recent: `${prefix}to:${email.purpose}:${email.to.toLowerCase()}`,
        };
        const repeatMs = email.repeatSeconds * 1000;
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
            )) as [number, number];
            if (outcome === 0)
              return {
                ok: false,
                retryAfterSeconds: Math.max(1, Math.ceil((ttl > 0 ? ttl : WINDOW_MS) / 1000)),
              };
            return { ok: true, send: outcome === 2 };
          } catch (err) {
            redisFailed(err as Error);
          }
        }
        return memory.claim(keys, family, repeatMs);
      },
    } satisfies EmailBudget);
  },
  { name: "email-budget", dependencies: ["services", "redis"] },
);
