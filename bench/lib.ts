// Shared helpers for the benchmarks (run by hand: `npm run bench…`, never as timed tests).
import autocannon from "autocannon";
import { execFileSync, spawn } from "node:child_process";
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

/** The median of a sample, the mean of the middle two of an even one (sorts it in place). */
export const median = (xs: number[]) => {
  xs.sort((a, b) => a - b);
  return (xs[(xs.length - 1) >> 1]! + xs[xs.length >> 1]!) / 2;
};

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

/** taskset (util-linux), where it is installed and the machine has two cores or more. */
const TASKSET =
  os.cpus().length >= 2
    ? ["/usr/bin/taskset", "/bin/taskset"].find((p) => fs.existsSync(p))
    : undefined;

/** Who runs on which core (onCore). */
type Role = "generator" | "server";
const CORE: Record<Role, string> = { generator: "0", server: "1" };

/**
 * `command` with its arguments, to run on one core when taskset can pin it: the load generator
 * on core 0 (`"generator"`), the servers measured on core 1, every thread of theirs. Left to the
 * scheduler, where a server's threads land beside the generator changed its CPU per request from
 * one slice to the next by 10–25 % on the 2-core VM; pinned, one server's slices agree within a
 * few per cent, and every server, ours and the baselines alike, has one core.
 */
export function onCore(role: Role, command: string, args: string[]): [string, string[]] {
  if (!TASKSET) return [command, args];
  return [TASKSET, ["-c", CORE[role], command, ...args]];
}

/** Pins a running process, every thread of it, to `role`'s core, as onCore starts one. */
function pin(pid: number, role: Role): void {
  if (TASKSET)
    execFileSync(TASKSET, ["-a", "-p", "-c", CORE[role], String(pid)], { stdio: "ignore" });
}

/**
 * Pins this process (the benchmark: it drains the servers' output, runs the rounds, and is the
 * load generator where autocannon is) on core 0, so what it does never lands on the measured
 * server's core. Not with autocannon's worker per core (staticLoad without wrk): they need both.
 */
export function pinBenchmark(): void {
  pin(process.pid, "generator");
}

/** Pins a running server (every thread of it) to the servers' core, as `onCore` starts one. */
export function pinServer(pid: number): void {
  pin(pid, "server");
}

/**
 * A baseline server (one of bench/bare-*.ts) in its own process (`pinned`: on the servers' core,
 * onCore): ready once it prints `listening <port>`.
 */
export function startBareServer(
  script: string,
  opts: { args?: string[]; env?: Record<string, string>; pinned?: boolean } = {},
): Promise<{ url: string; close(): void }> {
  const command: [string, string[]] = [process.execPath, [script, ...(opts.args ?? [])]];
  const child = spawn(...(opts.pinned ? onCore("server", ...command) : command), {
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
 * Prometheus's example scrape interval. A scrape's cost does not grow with the requests (it reads
 * the queues and the process once), so it is measured on its own (scrapeCpuMs) and counted as its
 * share of a core at this interval, beside what metrics add to each request.
 */
export const SCRAPE_EVERY_MS = 15_000;

/** One scrape of /metrics, as Prometheus makes it. */
export async function scrapeOnce(metricsUrl: string) {
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

/**
 * The row of the cost of metrics, with its target (≤ 3 % of throughput): what they take from the
 * request path (1 − the median pair's on/off throughput ratio) and a scrape's share of a core at
 * Prometheus's interval.
 */
export function metricsCost(medianRatio: number, scrapeMs: number) {
  const scrapeShare = scrapeMs / SCRAPE_EVERY_MS;
  const cost = 1 - medianRatio + scrapeShare;
  return {
    figure: "cost of metrics: request path (median pair) + a scrape every 15 s",
    value: `${fmt((1 - medianRatio) * 100, 1)} % + ${fmt(scrapeShare * 100, 2)} % = ${fmt(cost * 100, 1)} %`,
    target: "≤ 3 %",
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

/** Processes `alone` has stopped: continued if the benchmark exits meanwhile, so they can end. */
const stopped = new Set<number>();
process.on("exit", () => {
  for (const pid of stopped) process.kill(pid, "SIGCONT");
});

/**
 * Runs `work` (a load run on one server) while the processes of `others` are stopped (SIGSTOP),
 * and continues them after it. An idle server of ours still wakes for its pollers, its page
 * counts and its collector: 60–120 ms of CPU a second each on the 2-core VM, taken from the
 * server measured beside it, and more the more servers a benchmark keeps.
 */
export async function alone<T>(others: readonly Measured[], work: () => Promise<T>): Promise<T> {
  const pids = others.map((o) => o.child.pid!);
  for (const pid of pids) {
    stopped.add(pid);
    process.kill(pid, "SIGSTOP");
  }
  try {
    return await work();
  } finally {
    for (const pid of pids) {
      process.kill(pid, "SIGCONT");
      stopped.delete(pid);
    }
  }
}

/**
 * The servers of a metrics comparison, `pairs` with metrics off and as many with them on, started
 * one after the other by `start`; which of a pair starts first alternates, since a server started
 * earlier may stay slower or faster for as long as it runs.
 */
export async function startPairs<S>(
  pairs: number,
  start: (metrics: boolean) => Promise<S>,
): Promise<{ off: S[]; on: S[] }> {
  const off: S[] = [];
  const on: S[] = [];
  for (let i = 0; i < pairs; i++)
    for (const metrics of i % 2 === 0 ? [true, false] : [false, true])
      (metrics ? on : off).push(await start(metrics));
  return { off, on };
}

/**
 * Metrics off and on compared in pairs (decision 0047). The servers are paired, off[i] with on[i]
 * (started by startPairs); each round runs
 * every pair's two servers back to back, the one that goes first alternating by round and by
 * pair, so the machine's own changes (it slows down by a fifth for a minute on the shared VM)
 * weigh on both of a pair alike. Each slice runs alone: the other servers are stopped meanwhile,
 * so their timers take nothing from it. Each pair in each round gives one on/off ratio of
 * throughput and one of CPU per request; the figures are the medians of those ratios, which one
 * disturbed slice cannot move. Identical processes also keep a difference of their own for as
 * long as they run, so the more pairs, the less any one process weighs: the spread among the
 * "off" servers' CPU per request is printed beside the figures.
 */
export async function metricsRounds<S extends Measured>(opts: {
  off: S[];
  on: S[];
  rounds: number;
  /** One slice of load on `server`; `label` names it (unique per server and round). */
  run: (server: S, label: string) => Promise<LoadResult>;
  /** Done before each slice of `server`, outside what is counted (a scrape of an "on" one). */
  before?: (server: S) => Promise<void>;
}) {
  if (opts.off.length !== opts.on.length) throw new Error("metricsRounds: pairs of servers");
  const tallies = new Map<S, { cpuMs: number; requests: number }>();
  const offRuns: LoadResult[] = [];
  const onRuns: LoadResult[] = [];
  const rpsRatios: number[] = [];
  const cpuRatios: number[] = [];
  /** One slice on `server`: its result and the CPU it took per request. */
  const slice = async (server: S, label: string) => {
    const tally = tallies.get(server) ?? { cpuMs: 0, requests: 0 };
    tallies.set(server, tally);
    await opts.before?.(server);
    const before = { ...tally };
    const others = [...opts.off, ...opts.on].filter((s) => s !== server);
    const result = await alone(others, () =>
      withCpu(server.child.pid!, tally, () => opts.run(server, label)),
    );
    return { result, cpuMs: (tally.cpuMs - before.cpuMs) / (tally.requests - before.requests) };
  };
  for (let round = 0; round < opts.rounds; round++) {
    for (const [i, offServer] of opts.off.entries()) {
      const onServer = opts.on[i]!;
      const offFirst = (round + i) % 2 === 0;
      const first = await slice(offFirst ? offServer : onServer, `${round}-${i}-a`);
      const second = await slice(offFirst ? onServer : offServer, `${round}-${i}-b`);
      const [off, on] = offFirst ? [first, second] : [second, first];
      offRuns.push(off.result);
      onRuns.push(on.result);
      rpsRatios.push(on.result.rps / off.result.rps);
      cpuRatios.push(on.cpuMs / off.cpuMs);
    }
  }
  /** The servers' CPU per request, in milliseconds. */
  const cpuMsPerRequest = (servers: S[]) => {
    const counted = servers.map((server) => tallies.get(server)!);
    return (
      counted.reduce((sum, t) => sum + t.cpuMs, 0) / counted.reduce((sum, t) => sum + t.requests, 0)
    );
  };
  const offEach = opts.off.map((server) => cpuMsPerRequest([server]));
  return {
    offRuns,
    onRuns,
    /** Each pair's on/off throughput ratio in each round, lowest first, and their median. */
    ratios: [...rpsRatios].sort((a, b) => a - b),
    medianRatio: median(rpsRatios),
    /** The same of the CPU per request (on / off: above 1 is a cost). */
    medianCpuRatio: median(cpuRatios),
    /** Each side's CPU per request over all its slices. */
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
    const child = spawn(...onCore("generator", WRK, [...args, opts.url]), {
      stdio: ["ignore", "pipe", "inherit"],
    });
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
