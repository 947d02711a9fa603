// Runs the real server process as `npm start` does (node build/backend/server.mjs, built first
// when its sources changed) and waits until it is ready. Used by the process tests and the benchmarks.
import { execSync, spawn, type ChildProcess } from "node:child_process";
import readline from "node:readline";
import { isCurrent, PARTS } from "../../scripts/build-inputs.mjs";
import { TEST_JWT_SECRET } from "./app.ts";

let built = false;
/** The server's bundle, as `npm start` would build it (once per process; `npm test` builds it first). */
function serverEntry(): string {
  if (!built && !isCurrent("server")) execSync(PARTS.server.command, { stdio: "inherit" });
  built = true;
  return PARTS.server.output;
}

/**
 * The variables every instance of a shared deployment (PostgreSQL, Redis) must be given alike;
 * the server refuses to start on DATABASE_URL or REDIS_URL without them.
 */
export function sharedDeploymentEnv(
  databaseUrl: string,
  siteUrl = "http://localhost:3000",
): Record<string, string> {
  return { DATABASE_URL: databaseUrl, SITE_URL: siteUrl, JWT_SECRET: TEST_JWT_SECRET };
}

export type RunningServer = {
  url: string;
  /** The anon key the server printed at start. */
  anonKey: string;
  port: number;
  child: ChildProcess;
  /** Milliseconds from spawn to "ready" (the process's own start, database included). */
  startMs: number;
  logs: string[];
  stop(signal?: NodeJS.Signals): Promise<number | null>;
};

/**
 * Starts the built server and resolves once it is ready. `keepLogs: false` (the benchmarks) reads
 * its output line by line only until then, and after it only drains the pipe: a load of tens of
 * thousands of requests a second writes as many access lines, which the load generator's process
 * would otherwise split and keep.
 */
export function startServer(
  env: Record<string, string>,
  timeoutMs = 60_000,
  opts: { keepLogs?: boolean } = {},
): Promise<RunningServer> {
  const entry = serverEntry();
  const started = performance.now();
  const child = spawn(process.execPath, [entry], {
    env: {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      PORT: "0",
      HOST: "127.0.0.1",
      LOG_LEVEL: "info",
      NODE_ENV: "production",
      SHUTDOWN_DRAIN_MS: "0",
      ...env,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  const logs: string[] = [];
  const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      reject(new Error(`server did not start in ${timeoutMs} ms:\n${logs.join("\n")}`));
    }, timeoutMs);
    let port = 0;
    const onLine = (line: string) => {
      logs.push(line);
      const listening = /Server listening at http:\/\/127\.0\.0\.1:(\d+)/.exec(line);
      if (listening) port = Number(listening[1]);
      if (line.includes("Revwise is ready") && port) {
        clearTimeout(timer);
        if (opts.keepLogs === false)
          for (const [lines, stream] of readers) {
            lines.close();
            stream.on("data", () => {});
            stream.resume();
          }
        resolve({
          url: `http://127.0.0.1:${port}`,
          anonKey: /anon key: ([\w.-]+)/.exec(logs.join("\n"))?.[1] ?? "",
          port,
          child,
          startMs: performance.now() - started,
          logs,
          stop: (signal = "SIGTERM") => {
            child.kill(signal);
            return exited;
          },
        });
      }
    };
    const readers = [child.stdout!, child.stderr!].map(
      (stream) => [readline.createInterface({ input: stream }).on("line", onLine), stream] as const,
    );
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`server exited with ${code} before it was ready:\n${logs.join("\n")}`));
    });
  });
}

/**
 * Runs the server until it exits (expecting it to fail at start), or with `stopWhen` until its
 * output matches, then SIGTERM; resolves with its exit code and output. With `terminal`, its
 * output is a pseudo-terminal (script(1) from util-linux), as when run by hand.
 */
export function runToExit(
  env: Record<string, string>,
  opts: { terminal?: boolean; stopWhen?: RegExp } = {},
): Promise<{ code: number | null; stderr: string; stdout: string }> {
  const command = [process.execPath, serverEntry()];
  const child = opts.terminal
    ? spawn("script", ["-qfec", command.map((a) => `'${a}'`).join(" "), "/dev/null"], {
        env: { PATH: process.env.PATH, HOME: process.env.HOME, TERM: "xterm", ...env },
        stdio: ["pipe", "pipe", "pipe"],
      })
    : spawn(command[0]!, command.slice(1), {
        env: { PATH: process.env.PATH, HOME: process.env.HOME, ...env },
        stdio: ["ignore", "pipe", "pipe"],
      });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (d: Buffer) => {
    stdout += d;
    if (opts.stopWhen?.test(stdout)) child.kill("SIGTERM");
  });
  child.stderr.on("data", (d: Buffer) => (stderr += d));
  return new Promise((resolve) => child.on("exit", (code) => resolve({ code, stdout, stderr })));
}
