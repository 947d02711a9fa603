// The real app listening on a loopback port, for the tests that drive it with the real
// supabase-js client.
import crypto from "node:crypto";
import { createClient, type SupabaseClient } from "@supabase/supabase-js";
import type { FastifyInstance } from "fastify";
import { buildApp, type AppOptions } from "../../server/app.ts";
import type { Database } from "../../server/db/database.ts";
import { migrate } from "../../server/db/migrate.ts";
import { loadKeys } from "../../server/security/keys.ts";
import { testConfig } from "./app.ts";
import { freePort } from "./ports.ts";

export type ApiServer = {
  app: FastifyInstance;
  url: string;
  anonKey: string;
  serviceRoleKey: string;
  /** supabase-js with the service-role key, for `auth.admin` (no session of its own). */
  admin(): SupabaseClient;
  /**
   * supabase-js for this server; `ip` is sent as X-Forwarded-For (the server trusts its loopback peer).
   * With `pkce`, the PKCE flow, its verifier kept in memory (unless `storage` is given). With
   * `fetch`, every request the client sends goes through it (to see which ones it sends).
   */
  /**
   * fetch that resolves once the work the answer started is done too (emails made after the
   * answer), so what a test reads next is the world after the request. Every client here uses it.
   */
  fetch: typeof fetch;
  client(options?: {
    storage?: Storage;
    ip?: string;
    pkce?: boolean;
    fetch?: typeof fetch;
  }): SupabaseClient;
  close(): Promise<void>;
};

/** Fast retries and cheap proof of work, so tests take seconds; production values are tested separately. */
export const FAST_MAIL = {
  worker: { pollMs: 200, retryBaseMs: 100, maxDelayMs: 400, probeMs: 100 },
};
/** Webhook retries within a second, leases that pass on within one. */
export const FAST_WEBHOOKS = {
  worker: {
    pollMs: 200,
    retryBaseMs: 100,
    maxDelayMs: 400,
    maxRetryAfterMs: 2_000,
    leaseMs: 1_000,
    timeoutMs: 2_000,
  },
};
export const CHEAP_CAPTCHA = { cost: 10, counterMin: 5, counterMax: 40 };

export async function startApiServer(
  db: Database,
  opts: { env?: Record<string, string> } & Pick<AppOptions, "mail" | "captcha" | "webhooks"> = {},
): Promise<ApiServer> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const config = testConfig({
    PORT: String(port),
    SITE_URL: url,
    TRUST_PROXY: "loopback",
    ...opts.env,
  });
  await migrate(db);
  const keys = await loadKeys({ jwtSecret: config.jwtSecret, dataDir: config.dataDir });
  const app = await buildApp({
    config,
    db,
    keys,
    site: null,
    mail: opts.mail ?? FAST_MAIL,
    webhooks: opts.webhooks ?? FAST_WEBHOOKS,
    captcha: opts.captcha ?? CHEAP_CAPTCHA,
  });
  await app.listen({ port, host: "127.0.0.1" });
  const settled =
    (inner: typeof fetch): typeof fetch =>
    async (input, init) => {
      const res = await inner(input, init);
      await app.afterAnswer.idle();
      return res;
    };
  return {
    app,
    url,
    anonKey: keys.anonKey,
    serviceRoleKey: keys.serviceRoleKey,
    fetch: settled(fetch),
    admin: () =>
      createClient(url, keys.serviceRoleKey, {
        global: { fetch: settled(fetch) },
        auth: { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false },
      }),
    client: ({ storage, ip, pkce = false, fetch: through = fetch } = {}) => {
      const kept = storage ?? (pkce ? memoryStorage() : undefined);
      return createClient(url, keys.anonKey, {
        global: { headers: ip ? { "x-forwarded-for": ip } : {}, fetch: settled(through) },
        auth: {
          flowType: pkce ? "pkce" : "implicit",
          persistSession: Boolean(kept),
          storage: kept,
          autoRefreshToken: false,
          detectSessionInUrl: false,
        },
      });
    },
    close: () => app.close(),
  };
}

/** A session store in memory (what a browser keeps in localStorage). */
function memoryStorage() {
  const items = new Map<string, string>();
  return {
    getItem: (k: string) => items.get(k) ?? null,
    setItem: (k: string, v: string) => void items.set(k, v),
    removeItem: (k: string) => void items.delete(k),
  };
}

// From a random start in each test process: files running at the same time (and other runs on
// the machine) share Redis, whose rate-limit buckets are per client IP.
let lastIp = crypto.randomInt(0, 1 << 23);
/** A client address no other test uses (rate limits are per client IP). */
export const uniqueIp = () => `10.${(++lastIp >> 16) & 255}.${(lastIp >> 8) & 255}.${lastIp & 255}`;

let lastNetwork = crypto.randomInt(0, 2 ** 31);
/**
 * An IPv6 /64 no other test uses, as its first four groups (`${network}::1` is an address in it);
 * per-client limits count an IPv6 client by its /64.
 */
export const uniqueIpv6Network = () =>
  `2001:db8:${((++lastNetwork >> 16) & 0xffff).toString(16)}:${(lastNetwork & 0xffff).toString(16)}`;
