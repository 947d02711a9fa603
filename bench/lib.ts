// Shared helpers for the benchmarks (run by hand: `npm run bench…`, never as timed tests).
import autocannon from "autocannon";
import { spawn } from "node:child_process";
import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import http from "node:http";

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

export const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;

/** The median of a sample (sorts it in place). */
export const median = (xs: number[]) =>
  percentile(
    xs.sort((a, b) => a - b),
    50,
  );

let ip = 0;
/** A new client address per request (behind TRUST_PROXY), so per-IP limits stay out of the way. */
export const nextIp = () => `10.9.${(++ip >> 8) & 255}.${ip & 255}`;

/**
 * One request at a time over a keep-alive connection (a lean client, µs precision); `timed()`
 * answers the milliseconds of one POST that must answer 200. The body may differ per request.
 */
export function poster(
  url: string,
  body: string | (() => string),
  headers: Record<string, string>,
) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const post = () =>
    new Promise<number>((resolve, reject) => {
      const payload = typeof body === "string" ? body : body();
      const req = http.request(
        url,
        {
          method: "POST",
          agent,
          headers: {
            ...headers,
            "x-forwarded-for": nextIp(),
            "content-length": Buffer.byteLength(payload),
          },
        },
        (res) => {
          res.resume();
          res.on("end", () => resolve(res.statusCode ?? 0));
        },
      );
      req.on("error", reject);
      req.end(payload);
    });
  const timed = async () => {
    const t = performance.now();
    const status = await post();
    if (status !== 200) throw new Error(`a request to ${url} answered ${status}`);
    return performance.now() - t;
  };
  return { timed, close: () => agent.destroy() };
}

/**
 * An autocannon setupRequest: every request a new subscriber from a new address (distinct
 * visitors), with the body the site's newsletter form posts: the address and where the visitor came
 * from. The rows are as large as the site's (and as bench/scale-fill.ts's): a benchmark row smaller
 * than the stored ones fits in the few bytes each full page has left and lands on an old page
 * instead of the newest one, which no site's traffic does.
 */
export const uniqueInsert = (prefix: string) => (req: { headers?: Record<string, string> }) => {
  const id = crypto.randomBytes(6).toString("hex");
  const source = {
    page: "/pricing",
    utm_source: "newsletter",
    utm_campaign: `c${crypto.randomInt(100)}`,
  };
  return {
    ...req,
    headers: {
      ...req.headers,
      "x-forwarded-for": `10.${crypto.randomInt(256)}.${crypto.randomInt(256)}.${crypto.randomInt(256)}`,
    },
    body: JSON.stringify({ email: `${prefix}-${id}@bench.example`, source }),
  };
};

/**
 * A baseline server (one of bench/bare-*.ts) in its own process: ready once it prints
 * `listening <port>`.
 */
export function startBareServer(
  script: string,
  opts: { args?: string[]; env?: Record<string, string> } = {},
): Promise<{ url: string; close(): void }> {
  const child = spawn(process.execPath, [script, ...(opts.args ?? [])], {
    env: { ...process.env, ...opts.env },
    stdio: ["ignore", "pipe", "inherit"],
  });
  return new Promise((resolve) => {
    child.stdout.on("data", (d: Buffer) => {
      const port = /listening (\d+)/.exec(d.toString())?.[1];
      if (port) resolve({ url: `http://127.0.0.1:${port}`, close: () => child.kill() });
    });
  });
}

/**
 * How often the benchmarks scrape /metrics while they load a server with metrics on: the
 * interval of Prometheus's own example configuration. A scrape's cost does not grow with the
 * requests (it reads the queues and the process once), so it is measured on its own
 * (scrapeCpuMs) instead of at a rate no Prometheus is set to.
 */
export const SCRAPE_EVERY_MS = 15_000;

/**
 * A server with metrics on, as a Prometheus sees it: /metrics read at once and then every
 * SCRAPE_EVERY_MS until stopped; how many scrapes.
 */
export function scrapeEvery(metricsUrl: string): { stop(): Promise<number> } {
  let scrapes = 0;
  let stopped = false;
  let wake: (() => void) | undefined;
  const loop = (async () => {
    while (!stopped) {
      await scrapeOnce(metricsUrl);
      scrapes += 1;
      await new Promise<void>((resolve) => {
        wake = resolve;
        setTimeout(resolve, SCRAPE_EVERY_MS);
      });
    }
  })();
  return {
    stop: async () => {
      stopped = true;
      wake?.();
      await loop;
      return scrapes;
    },
  };
}

async function scrapeOnce(metricsUrl: string) {
  const res = await fetch(metricsUrl);
  if (res.status !== 200) throw new Error(`${metricsUrl}: ${res.status}`);
  await res.text();
}

/** The CPU time one scrape costs the server (process `pid`), in ms: the mean of `count`. */
export async function scrapeCpuMs(pid: number, metricsUrl: string, count = 20): Promise<number> {
  await scrapeOnce(metricsUrl); // warm
  const before = cpuMs(pid);
  for (let i = 0; i < count; i++) await scrapeOnce(metricsUrl);
  return (cpuMs(pid) - before) / count;
}

/** The row of a metrics-on over metrics-off comparison, with its target (≤ 3 % of throughput). */
export function metricsCost(off: number, on: number) {
  const cost = 1 - on / off;
  return {
    figure: "throughput with metrics on vs off",
    value: `${fmt((on / off) * 100, 1)} % (cost ${fmt(cost * 100, 1)} %)`,
    target: "cost ≤ 3 %",
    ok: cost <= 0.03 ? "yes" : "NO",
  };
}

/**
 * The CPU time a process (and its threads: PGlite's) has used, in milliseconds, from
 * /proc/PID/stat (Linux). Per request it is steadier than throughput on a shared machine: other
 * processes slow a run down, but add little to the CPU each request itself takes.
 */
export function cpuMs(pid: number): number {
  const fields = fs.readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ");
  // utime and stime, the 14th and 15th fields (12th and 13th after the name), in clock ticks.
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS;
}
const CLOCK_TICKS = 100;

/** Runs `work` (a load run) and adds its requests and the process's CPU time to `tally`. */
export async function withCpu(
  pid: number,
  tally: { cpuMs: number; requests: number },
  work: () => Promise<LoadResult>,
): Promise<LoadResult> {
  const before = cpuMs(pid);
  const result = await work();
  tally.cpuMs += cpuMs(pid) - before;
  tally.requests += result.requests;
  return result;
}

/** A server process whose CPU is counted (`withCpu`). */
type Measured = { child: { pid?: number } };

/**
 * Metrics off and on compared in alternating rounds (decision 0047): each round runs every server
 * of one side, then of the other, the side that goes first alternating, so a machine that speeds
 * up or slows down weighs on both alike. Each side's throughput in a round is the mean of its
 * servers'. Two identical processes differ by several per cent for as long as they run, so the
 * figure is the median round's on/off ratio, beside each side's CPU per request and the spread
 * among the "off" servers' (what identical servers differ by).
 */
export async function metricsRounds<S extends Measured>(opts: {
  off: S[];
  on: S[];
  rounds: number;
  /** One slice of load on `server`; `label` names it (unique per server and round). */
  run: (server: S, label: string) => Promise<LoadResult>;
}) {
  const tallies = new Map<S, { cpuMs: number; requests: number }>();
  const sides = [
    { name: "off", servers: opts.off, runs: [] as LoadResult[], rps: [] as number[] },
    { name: "on", servers: opts.on, runs: [] as LoadResult[], rps: [] as number[] },
  ];
  const [off, on] = sides as [(typeof sides)[number], (typeof sides)[number]];
  for (let round = 0; round < opts.rounds; round++) {
    for (const side of round % 2 === 0 ? [off, on] : [on, off]) {
      let rps = 0;
      for (const [i, server] of side.servers.entries()) {
        const tally = tallies.get(server) ?? { cpuMs: 0, requests: 0 };
        tallies.set(server, tally);
        const result = await withCpu(server.child.pid!, tally, () =>
          opts.run(server, `${side.name}-${round}-${i}`),
        );
        side.runs.push(result);
        rps += result.rps;
      }
      side.rps.push(rps / side.servers.length);
    }
  }
  /** The servers' CPU per request, in milliseconds. */
  const cpuMsPerRequest = (servers: S[]) => {
    const counted = servers.map((server) => tallies.get(server)!);
    return (
      counted.reduce((sum, t) => sum + t.cpuMs, 0) / counted.reduce((sum, t) => sum + t.requests, 0)
    );
  };
  const ratios = on.rps.map((r, i) => r / off.rps[i]!).sort((a, b) => a - b);
  const offEach = opts.off.map((server) => cpuMsPerRequest([server]));
  return {
    offRuns: off.runs,
    onRuns: on.runs,
    /** Each side's throughput in each round. */
    offRps: off.rps,
    onRps: on.rps,
    /** The rounds' on/off ratios, lowest first, and their median. */
    ratios,
    medianRatio: (ratios[(ratios.length - 1) >> 1]! + ratios[ratios.length >> 1]!) / 2,
    offMs: cpuMsPerRequest(opts.off),
    onMs: cpuMsPerRequest(opts.on),
    /** Each "off" server's CPU per request, and how far the highest is above the lowest. */
    offEachMs: offEach,
    offSpread: Math.max(...offEach) / Math.min(...offEach) - 1,
  };
}

/** wrk (Debian's `wrk` package) when installed: one C thread outruns any Node server here. */
export const WRK = ["/usr/bin/wrk", "/usr/local/bin/wrk"].find((p) => fs.existsSync(p));

/** wrk's summary as one JSON line (its Lua `done` hook): latencies in µs. */
const WRK_REPORT = `
done = function(summary, latency, requests)
  local e = summary.errors
  io.write(string.format('WRK_JSON {"requests":%d,"us":%d,"p50":%d,"p99":%d,"errors":%d,"status":%d}\\n',
    summary.requests, summary.duration, latency:percentile(50), latency:percentile(99),
    e.connect + e.read + e.write + e.timeout, e.status))
end
`;

/**
 * GETs of one URL for a while, by a load generator that is not the limit: wrk (one thread, 50
 * connections, as the figures were taken) or, without it, autocannon in as many worker
 * threads as there are cores. `non2xx` counts answers of another status than `expect`.
 */
export async function staticLoad(opts: {
  url: string;
  durationSeconds: number;
  headers?: Record<string, string>;
  connections?: number;
}): Promise<LoadResult> {
  const connections = opts.connections ?? 50;
  const headers = opts.headers ?? {};
  if (!WRK) {
    const result = await autocannon({
      url: opts.url,
      connections,
      duration: opts.durationSeconds,
      headers,
      workers: Math.max(2, os.cpus().length),
    });
    return {
      requests: result.requests.total,
      rps: result.requests.total / opts.durationSeconds,
      p50: result.latency.p50,
      p99: result.latency.p99,
      errors: result.errors,
      non2xx: result.non2xx,
    };
  }
  const script = path.join(os.tmpdir(), "revwise-bench-wrk.lua");
  fs.writeFileSync(script, WRK_REPORT);
  const args = ["-t1", `-c${connections}`, `-d${opts.durationSeconds}s`, "-s", script];
  for (const [name, value] of Object.entries(headers)) args.push("-H", `${name}: ${value}`);
  const out = await new Promise<string>((resolve, reject) => {
    const child = spawn(WRK, [...args, opts.url], { stdio: ["ignore", "pipe", "inherit"] });
    let text = "";
    child.stdout.on("data", (d: Buffer) => (text += d));
    child.on("error", reject);
    child.on("exit", (code) => (code === 0 ? resolve(text) : reject(new Error(`wrk: ${code}`))));
  });
  const line = /WRK_JSON (.*)/.exec(out)?.[1];
  if (!line) throw new Error(`wrk printed no summary:\n${out}`);
  const r = JSON.parse(line) as Record<string, number>;
  return {
    requests: r.requests!,
    rps: r.requests! / (r.us! / 1e6),
    p50: r.p50! / 1000,
    p99: r.p99! / 1000,
    errors: r.errors!,
    non2xx: r.status!,
  };
}
