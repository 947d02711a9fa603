// SIGTERM under keep-alive traffic: requests in flight finish, every connection closes, every
// shutdown hook runs, the process exits 0 well within its limit; with a drain, readiness turns
// 503 first while requests are still served.
import path from "node:path";
import { describe, expect, it } from "vitest";
import { tempDir } from "../support/app.ts";
import { waitUntil } from "../support/poll.ts";
import { rawConnect, waitForLog } from "../support/raw-http.ts";
import { startServer } from "../support/server-process.ts";

const signInBody = JSON.stringify({
  email: "nobody@revwise.example",
  password: "not-the-password",
});

function embeddedEnv(extra: Record<string, string> = {}) {
  const dataDir = tempDir();
  return { DATA_DIR: dataDir, SITE_DIR: path.join(dataDir, "no-site"), ...extra };
}

describe("shutdown", () => {
  it("finishes a request in flight, closes keep-alive connections, runs every hook and exits 0", async () => {
    const server = await startServer(embeddedEnv());
    // An idle keep-alive connection: one request answered, the connection left open.
    const idle = await rawConnect(server.port);
    idle.socket.write("GET /livez HTTP/1.1\r\nHost: t\r\n\r\n");
    expect((await idle.response()).status).toBe(200);
    // A request in flight: headers and half the body sent, and the server's "100 Continue" read,
    // so the server has the request (one it had not read yet would be refused as it closes).
    const busy = await rawConnect(server.port);
    busy.socket.write(
      `POST /auth/v1/token?grant_type=password HTTP/1.1\r\nHost: t\r\napikey: ${server.anonKey}\r\n` +
        `Content-Type: application/json\r\nContent-Length: ${signInBody.length}\r\n` +
        `Expect: 100-continue\r\n\r\n` +
        signInBody.slice(0, 10),
    );
    await waitUntil(async () => busy.received().startsWith("HTTP/1.1 100 Continue\r\n"), 5_000);

    const exited = server.stop("SIGTERM");
    await waitForLog(server.logs, /"msg":"closing"/);
    await idle.closed; // closed by the server at once

    busy.socket.write(signInBody.slice(10));
    const answer = await busy.response();
    expect(answer.status).toBe(400); // answered: wrong credentials, not a reset
    expect(answer.body).toContain("invalid_credentials");
    expect(answer.head.toLowerCase()).toContain("connection: close");
    await busy.closed;

    expect(await exited).toBe(0);
    // Within the process's own limit (10 s after the drain), by its own clock.
    const at = (msg: string) =>
      (JSON.parse(server.logs.find((l) => l.includes(`"msg":"${msg}"`))!) as { time: number }).time;
    expect(at("stopped") - at("draining")).toBeLessThan(10_000);
    // "stopped" is logged once every onClose hook resolved: database, mail worker, lock.
    expect(server.logs.some((l) => l.includes('"msg":"stopped"'))).toBe(true);
    expect(server.logs.join("\n")).not.toContain("shutdown took too long");
  });

  it("drains: readiness turns 503 at once while requests are still served, then closes", async () => {
    const server = await startServer(embeddedEnv({ SHUTDOWN_DRAIN_MS: "1500" }));
    const ready = await fetch(`${server.url}/readyz`);
    expect(ready.status).toBe(200);
    expect(await ready.json()).toEqual({ status: "ready" });

    const exited = server.stop("SIGTERM");
    await waitForLog(server.logs, /"msg":"draining"/);
    const draining = await fetch(`${server.url}/readyz`);
    expect(draining.status).toBe(503);
    expect(draining.headers.get("retry-after")).toBe("1");
    expect(await draining.json()).toEqual({ status: "draining" });
    // Still serving, and telling keep-alive clients to reconnect (to another instance).
    const live = await fetch(`${server.url}/livez`);
    expect(live.status).toBe(200);
    expect(live.headers.get("connection")).toBe("close");
    expect((await fetch(`${server.url}/auth/v1/health`)).status).toBe(200);
    expect(server.logs.some((l) => l.includes('"msg":"closing"'))).toBe(false);

    expect(await exited).toBe(0);
    expect(server.logs.some((l) => l.includes('"msg":"stopped"'))).toBe(true);
  });
});
