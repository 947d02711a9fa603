// A real haproxy (Debian's package) in front of several server instances on loopback, configured
// as the README's recipe: round robin, `option forwardfor` (appends the client's address to
// X-Forwarded-For), a health check on /readyz, retries on another instance when one refuses
// connections, and every instance again as a backup for when none is ready. It connects to the
// instances from 127.0.0.2, the one address they are told to trust (TRUST_PROXY=127.0.0.2), and
// gives each request an id (X-Request-Id).
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { tempDir } from "./app.ts";
import { waitUntil } from "./poll.ts";
import { freePort } from "./ports.ts";
import { missing } from "./requirements.ts";

export const BALANCER_ADDRESS = "127.0.0.2";

export type Haproxy = {
  url: string;
  child: ChildProcess;
  /** Each checked instance's state as haproxy sees it (UP, DOWN, …), from its statistics. */
  states(): Promise<string[]>;
  stop(): Promise<void>;
};

export function haproxyAvailable(): boolean {
  if (spawnSync("haproxy", ["-v"]).status === 0) return true;
  missing("haproxy", "apt-get install haproxy");
  return false;
}

export async function startHaproxy(backends: number[]): Promise<Haproxy> {
  const [port, statsPort] = [await freePort(), await freePort()];
  const config = [
    "global",
    "  maxconn 512",
    "defaults",
    "  mode http",
    "  timeout connect 2s",
    "  timeout client 30s",
    "  timeout server 30s",
    "  option forwardfor",
    "  option redispatch 1",
    "  retries 3",
    "frontend site",
    `  bind 127.0.0.1:${port}`,
    // Each request's id, passed on in X-Request-Id in place of any the client sent (the instances
    // trust it from this balancer).
    "  unique-id-format %{+X}o%ci:%cp_%fi:%fp_%Ts_%rt:%pid",
    "  http-request set-header X-Request-Id %[unique-id]",
    "  default_backend instances",
    "backend instances",
    "  balance roundrobin",
    "  option httpchk GET /readyz",
    "  http-check expect status 200",
    "  option allbackups",
    `  default-server inter 250ms fall 2 rise 2 source ${BALANCER_ADDRESS}`,
    ...backends.map((p, i) => `  server i${i} 127.0.0.1:${p} check`),
    ...backends.map((p, i) => `  server i${i}-unready 127.0.0.1:${p} backup`),
    "listen stats",
    `  bind 127.0.0.1:${statsPort}`,
    "  stats enable",
    "  stats uri /stats",
    "",
  ].join("\n");
  const file = path.join(tempDir("revwise-haproxy-"), "haproxy.cfg");
  fs.writeFileSync(file, config);
  const child = spawn("haproxy", ["-db", "-f", file], { stdio: ["ignore", "ignore", "pipe"] });
  let stderr = "";
  child.stderr!.on("data", (d: Buffer) => (stderr += d));
  const url = `http://127.0.0.1:${port}`;
  // Ready once it answers through to an instance.
  await waitUntil(
    async () => {
      if (child.exitCode !== null) throw new Error(`haproxy exited: ${stderr}`);
      return fetch(`${url}/livez`).then(
        (r) => r.status === 200,
        () => false,
      );
    },
    10_000,
    () => `haproxy did not answer: ${stderr}`,
  );
  const exited = new Promise<void>((r) => child.on("exit", () => r()));
  return {
    url,
    child,
    states: async () => {
      const csv = await (await fetch(`http://127.0.0.1:${statsPort}/stats;csv`)).text();
      // Columns: proxy name, server name, …, the 18th is the status.
      return csv
        .split("\n")
        .map((line) => line.split(","))
        .filter(([proxy, name]) => proxy === "instances" && /^i\d+$/.test(name ?? ""))
        .map((fields) => fields[17]!);
    },
    stop: async () => {
      child.kill("SIGTERM");
      await exited;
    },
  };
}
