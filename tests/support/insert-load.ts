// A bounded stream of newsletter sign-ups against running servers (or a balancer), remembering
// every one that was acknowledged with 201. Each request comes from a client address of its own:
// a loopback address of its own (`from`, for a balancer that appends the real one), or one written
// into X-Forwarded-For (for a server that trusts its loopback peer).
import { httpRequest } from "./raw-http.ts";

export type InsertLoad = {
  /** Emails whose insert was answered 201. */
  acknowledged: string[];
  /** Statuses of every answer, and the count of requests that got no answer (connection lost). */
  statuses: number[];
  lost: number;
  /** Resolves when `max` requests were answered (or lost). */
  done: Promise<void>;
  /** Stops sending and resolves when the requests under way are answered (or lost). */
  stop(): Promise<void>;
};

export function insertLoad(
  urls: string[],
  anonKey: string,
  opts: { workers?: number; max?: number; tag?: string; ownAddresses?: boolean } = {},
): InsertLoad {
  const { workers = 4, max = 5000, tag = "load", ownAddresses = false } = opts;
  const load: InsertLoad = {
    acknowledged: [],
    statuses: [],
    lost: 0,
    done: Promise.resolve(),
    stop: async () => {},
  };
  let running = true;
  let n = 0;
  const worker = async () => {
    while (running && n < max) {
      const i = n++;
      const email = `${tag}-${i}@revwise.example`;
      const address = `${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`;
      try {
        const res = await httpRequest(`${urls[i % urls.length]}/rest/v1/newsletter_subscribers`, {
          method: "POST",
          headers: {
            apikey: anonKey,
            "content-type": "application/json",
            ...(ownAddresses ? {} : { "x-forwarded-for": `10.${address}` }),
          },
          body: JSON.stringify({ email }),
          from: ownAddresses
            ? `127.${100 + ((i >> 16) & 63)}.${(i >> 8) & 255}.${i & 255}`
            : undefined,
        });
        load.statuses.push(res.status);
        if (res.status === 201) load.acknowledged.push(email);
      } catch {
        load.lost++;
      }
    }
  };
  const all = Promise.all(Array.from({ length: workers }, worker));
  load.done = all.then(() => {});
  load.stop = async () => {
    running = false;
    await all;
  };
  return load;
}
