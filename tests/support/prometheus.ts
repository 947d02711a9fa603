// A real Prometheus (Debian's package) started by the test itself: its own configuration and
// data folder in a temporary directory, a loopback port of its own, the repository's alert rules
// loaded, scraping the given /metrics URLs every half second under the job "revwise" (each
// target an instance of its own). Read through its HTTP API, as Grafana or an operator would.
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { tempDir } from "./app.ts";
import { readUntil, waitUntil } from "./poll.ts";
import { freePort } from "./ports.ts";
import { missing } from "./requirements.ts";

/** The alert rules shipped in the repository. */
export const ALERT_RULES = path.resolve(import.meta.dirname, "../../ops/prometheus/alerts.yml");

export function prometheusAvailable(): boolean {
  if (
    spawnSync("prometheus", ["--version"]).status === 0 &&
    spawnSync("promtool", ["--version"]).status === 0
  )
    return true;
  missing("prometheus and promtool", "apt-get install prometheus");
  return false;
}

/** One series of an instant query's answer: its labels and its value. */
export type Sample = { metric: Record<string, string>; value: number };

export type Prometheus = {
  url: string;
  child: ChildProcess;
  /** An instant query (/api/v1/query): the series of its vector. */
  query(expr: string): Promise<Sample[]>;
  /** Queries until `done` holds for the answer (Prometheus scrapes on its own clock). */
  queryUntil(
    expr: string,
    done: (samples: Sample[]) => boolean,
    timeoutMs?: number,
  ): Promise<Sample[]>;
  /** The health of each alert rule as Prometheus evaluated it (/api/v1/rules). */
  ruleHealth(): Promise<{ name: string; health: string; lastError?: string }[]>;
  stop(): Promise<void>;
};

/** `host:port` of each /metrics URL. */
const targetOf = (metricsUrl: string) => new URL(metricsUrl).host;

export async function startPrometheus(metricsUrls: string[]): Promise<Prometheus> {
  const dir = tempDir("revwise-prometheus-");
  const port = await freePort();
  const config = [
    "global:",
    "  scrape_interval: 500ms",
    "  scrape_timeout: 400ms",
    "  evaluation_interval: 500ms",
    "rule_files:",
    `  - ${JSON.stringify(ALERT_RULES)}`,
    "scrape_configs:",
    "  - job_name: revwise",
    "    static_configs:",
    `      - targets: ${JSON.stringify(metricsUrls.map(targetOf))}`,
    "",
  ].join("\n");
  fs.writeFileSync(path.join(dir, "prometheus.yml"), config);
  const child = spawn(
    "prometheus",
    [
      `--config.file=${path.join(dir, "prometheus.yml")}`,
      `--storage.tsdb.path=${path.join(dir, "data")}`,
      `--web.listen-address=127.0.0.1:${port}`,
    ],
    { stdio: ["ignore", "ignore", "pipe"] },
  );
  let stderr = "";
  child.stderr!.on("data", (d: Buffer) => (stderr = (stderr + d.toString()).slice(-4000)));
  const exited = new Promise<void>((r) => child.on("exit", () => r()));
  const url = `http://127.0.0.1:${port}`;
  await waitUntil(
    async () => {
      if (child.exitCode !== null) throw new Error(`prometheus exited: ${stderr}`);
      return fetch(`${url}/-/ready`).then(
        (r) => r.status === 200,
        () => false,
      );
    },
    20_000,
    () => `prometheus did not get ready: ${stderr}`,
  );

  const api = async <T>(pathname: string): Promise<T> => {
    const res = await fetch(`${url}${pathname}`);
    const body = (await res.json()) as { status: string; data: T; error?: string };
    if (body.status !== "success") throw new Error(`${pathname}: ${body.error}`);
    return body.data;
  };
  const query = async (expr: string) => {
    const data = await api<{
      result: { metric: Record<string, string>; value: [number, string] }[];
    }>(`/api/v1/query?query=${encodeURIComponent(expr)}`);
    return data.result.map((r) => ({ metric: r.metric, value: Number(r.value[1]) }));
  };
  return {
    url,
    child,
    query,
    queryUntil: (expr, done, timeoutMs = 20_000) =>
      readUntil(
        () => query(expr),
        done,
        timeoutMs,
        (s) => `${expr} → ${JSON.stringify(s)}`,
      ),
    ruleHealth: async () => {
      const data = await api<{
        groups: { rules: { name: string; health: string; lastError?: string }[] }[];
      }>("/api/v1/rules");
      return data.groups.flatMap((g) =>
        g.rules.map(({ name, health, lastError }) => ({ name, health, lastError })),
      );
    },
    stop: async () => {
      child.kill("SIGTERM");
      await exited;
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
