// Shared helpers for the benchmarks (run by hand: `npm run bench…`, never as timed tests).
import autocannon from "autocannon";

export type LoadResult = {
  requests: number;
  rps: number;
  p50: number;
  p99: number;
  errors: number;
  non2xx: number;
};

export async function load(opts: {
  url: string;
  connections?: number;
  durationSeconds?: number;
  /** A number of requests instead of a duration. */
  amount?: number;
  method?: "GET" | "POST";
  headers?: Record<string, string>;
  body?: string;
  setupRequest?: autocannon.Request["setupRequest"];
}): Promise<LoadResult> {
  const result = await autocannon({
    url: opts.url,
    connections: opts.connections ?? 10,
    ...(opts.amount ? { amount: opts.amount } : { duration: opts.durationSeconds ?? 10 }),
    method: opts.method ?? "GET",
    headers: opts.headers,
    body: opts.body,
    requests: opts.setupRequest ? [{ setupRequest: opts.setupRequest }] : undefined,
  });
  return {
    requests: result.requests.total,
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.errors,
    non2xx: result.non2xx,
  };
}

export function table(rows: Record<string, string | number>[]): void {
  const cols = Object.keys(rows[0] ?? {});
  const width = (c: string) => Math.max(c.length, ...rows.map((r) => String(r[c]).length));
  const line = (cells: string[]) =>
    `| ${cells.map((s, i) => s.padEnd(width(cols[i]!))).join(" | ")} |`;
  console.log(line(cols));
  console.log(line(cols.map((c) => "-".repeat(width(c)))));
  for (const r of rows) console.log(line(cols.map((c) => String(r[c]))));
}

export const fmt = (n: number, digits = 0) =>
  n.toLocaleString("en-US", { maximumFractionDigits: digits, minimumFractionDigits: digits });
