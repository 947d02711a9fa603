// The real process: start, serve, shut down on SIGTERM, restart on the same data, refuse bad config.
import fs from "node:fs";
import path from "node:path";
import { stripVTControlCharacters } from "node:util";
import { jwtVerify } from "jose";
import { describe, expect, it } from "vitest";
import { tempDir, TEST_JWT_SECRET } from "../tests/support/app.ts";
import { runToExit, sharedDeploymentEnv, startServer } from "../tests/support/server-process.ts";
import { rawConnect, waitForLog } from "../tests/support/raw-http.ts";
import { freePort } from "../tests/support/ports.ts";
import { redisAvailable, TEST_REDIS_URL } from "../tests/support/redis.ts";
import { openPglite } from "./db/pglite.ts";

const haveRedis = await redisAvailable();
/** What a deployment sharing Redis must also be given (the embedded database otherwise). */
const redisDeployment = { SITE_URL: "http://localhost:3000", JWT_SECRET: TEST_JWT_SECRET };

const anonKeyIn = (logs: string[]) => /anon key: ([\w.-]+)/.exec(logs.join("\n"))?.[1];

describe("server process", () => {
  it("starts, answers, stops on SIGTERM, and keeps its data and keys across a restart", async () => {
    const dataDir = tempDir();
    const env = { DATA_DIR: dataDir, SITE_DIR: path.join(dataDir, "no-site") };

    const first = await startServer(env);
    // The server runs on the Node.js that npm install brings (node_modules/.bin), whatever the system's.
    expect(first.logs.find((l) => l.includes("Revwise is ready"))).toMatch(/"node":"v24\./);
    const health = await fetch(`${first.url}/auth/v1/health`);
    expect(health.status).toBe(200);
    const firstKey = anonKeyIn(first.logs);
    expect(firstKey).toBeTruthy();
    expect(await first.stop("SIGTERM")).toBe(0);

    // Write a marker straight into the embedded database while no server runs.
    const pg = await openPglite(path.join(dataDir, "pglite"));
    await pg.exec(
      "CREATE TABLE internal.restart_marker (note text); INSERT INTO internal.restart_marker VALUES ('kept')",
    );
    await pg.close();
    const secret = fs.readFileSync(path.join(dataDir, "jwt-secret"), "utf8");

    const second = await startServer(env);
    expect((await fetch(`${second.url}/auth/v1/health`)).status).toBe(200);
    expect(await second.stop("SIGINT")).toBe(0);

    expect(fs.readFileSync(path.join(dataDir, "jwt-secret"), "utf8")).toBe(secret);
    await expect(
      jwtVerify(firstKey!, new TextEncoder().encode(secret.trim())),
    ).resolves.toBeTruthy();
    await expect(
      jwtVerify(anonKeyIn(second.logs)!, new TextEncoder().encode(secret.trim())),
    ).resolves.toBeTruthy();
    const reopened = await openPglite(path.join(dataDir, "pglite"));
    expect(await reopened.query("SELECT note FROM internal.restart_marker")).toEqual([
      { note: "kept" },
    ]);
    await reopened.close();
  });

  it("logs one line per request, when it is done, without the secrets of its URL", async () => {
    const dataDir = tempDir();
    const server = await startServer({ DATA_DIR: dataDir, SITE_DIR: path.join(dataDir, "none") });
    const secret = "a1b2c3d4e5f6secret";
    const res = await fetch(`${server.url}/auth/v1/verify?token=${secret}&type=signup`, {
      redirect: "manual",
    });
    await res.arrayBuffer();
    // A balancer's health checks, every second, are not the requests an operator reads.
    for (const probe of ["/livez", "/readyz"])
      expect((await fetch(`${server.url}${probe}`)).status).toBe(200);
    await server.stop("SIGTERM");
    const lines = server.logs
      .filter((l) => l.startsWith("{"))
      .map((l) => JSON.parse(l) as Record<string, unknown>)
      .filter((l) => typeof l.req === "object");
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({
      msg: "request completed",
      req: { method: "GET", url: "/auth/v1/verify?token=%5Bredacted%5D&type=signup" },
      res: { statusCode: res.status },
    });
    expect(typeof lines[0]!.responseTime).toBe("number");
    expect(server.logs.join("\n")).not.toContain(secret);
  });

  it("refuses to share its embedded database with a running server, and starts after a crash left its lock file", async () => {
    const dataDir = tempDir();
    const env = { DATA_DIR: dataDir, SITE_DIR: path.join(dataDir, "no-site") };
    const first = await startServer(env);
    const second = await runToExit(env);
    expect(second.code).toBe(1);
    expect(second.stderr).toContain(
      `Revwise could not start: the embedded database in ${dataDir} is in use by another Revwise server (pid ${first.child.pid})`,
    );
    expect((await fetch(`${first.url}/auth/v1/health`)).status).toBe(200);
    // A server killed outright leaves its lock file behind, but the kernel released its lock.
    expect(await first.stop("SIGKILL")).toBe(null);
    expect(fs.readFileSync(path.join(dataDir, "server.lock"), "utf8").trim()).toBe(
      String(first.child.pid),
    );
    const third = await startServer(env);
    expect((await fetch(`${third.url}/auth/v1/health`)).status).toBe(200);
    expect(await third.stop("SIGTERM")).toBe(0);
  });

  it("exits on SIGTERM when nobody reads its output any more", async () => {
    // A log reader that goes away (a crashed supervisor, a closed pipe) must not keep the server
    // from exiting: the log's last lines are dropped instead (platform/log-lines.ts).
    const dataDir = tempDir();
    const server = await startServer({ DATA_DIR: dataDir, SITE_DIR: path.join(dataDir, "none") });
    server.child.stdout!.destroy();
    server.child.stderr!.destroy();
    const code = await Promise.race([
      server.stop("SIGTERM"),
      new Promise<string>((resolve) => setTimeout(() => resolve("still running"), 10_000)),
    ]);
    if (code === "still running") server.child.kill("SIGKILL");
    expect(code).toBe(0);
  });

  it("cuts a body sent slowly at REQUEST_TIMEOUT_MS with 408", async () => {
    const dataDir = tempDir();
    const server = await startServer({
      DATA_DIR: dataDir,
      SITE_DIR: path.join(dataDir, "none"),
      REQUEST_TIMEOUT_MS: "2000",
    });
    try {
      const conn = await rawConnect(server.port);
      const started = performance.now();
      conn.socket.write(
        "POST /auth/v1/token?grant_type=password HTTP/1.1\r\nHost: t\r\n" +
          "Content-Type: application/json\r\nContent-Length: 60000\r\n\r\n{",
      );
      // A byte every 100 ms: the connection is never idle, the request never complete.
      const trickle = setInterval(() => conn.socket.write(" "), 100);
      const answer = await conn.response().finally(() => clearInterval(trickle));
      const elapsed = performance.now() - started;
      expect(answer.status).toBe(408);
      expect(elapsed).toBeGreaterThan(1900);
      expect(elapsed).toBeLessThan(3500);
    } finally {
      await server.stop("SIGTERM");
    }
  });

  it("logs a client that drops its upload as a request cut short, never as the database down", async () => {
    const dataDir = tempDir();
    const server = await startServer({ DATA_DIR: dataDir, SITE_DIR: path.join(dataDir, "none") });
    try {
      for (const path of [
        "/auth/v1/signup",
        "/rest/v1/demo_requests",
        "/functions/v1/contact-notification",
      ]) {
        const conn = await rawConnect(server.port);
        conn.socket.write(
          `POST ${path} HTTP/1.1\r\nHost: t\r\nContent-Type: application/json\r\n` +
            'Content-Length: 100\r\n\r\n{"email":',
        );
        await new Promise((resolve) => setTimeout(resolve, 100));
        conn.socket.destroy();
        await conn.closed;
      }
      await waitForLog(server.logs, /function: the client left/);
      expect((await fetch(`${server.url}/readyz`)).status).toBe(200);
    } finally {
      await server.stop("SIGTERM");
    }
    const lines = server.logs
      .filter((l) => l.startsWith("{"))
      .map((l) => JSON.parse(l) as { level: number; msg: string; req?: { url: string } });
    expect(lines.filter((l) => l.level >= 40 && !/no built site/.test(l.msg))).toEqual([]);
    expect(lines.filter((l) => l.req).map((l) => [l.level, l.req!.url, l.msg])).toEqual([
      [30, "/auth/v1/signup", "auth request: the client left before sending its whole request"],
      [
        30,
        "/rest/v1/demo_requests",
        "rest request: the client left before sending its whole request",
      ],
      [
        30,
        "/functions/v1/contact-notification",
        "function: the client left before sending its whole request",
      ],
    ]);
  });

  it("refuses a bad variable with one line naming it and exit code 1", async () => {
    const { code, stderr } = await runToExit({ PORT: "not-a-port", DATA_DIR: tempDir() });
    expect(code).toBe(1);
    expect(stderr.trim()).toMatch(/^Invalid configuration: PORT [^\n]+$/);
  });

  it("stops with one line naming DATA_DIR when it cannot be made or is not a folder", async () => {
    const file = path.join(tempDir(), "a-file");
    fs.writeFileSync(file, "");
    for (const [dataDir, reason] of [
      // The system refuses a folder there without saying one exists (a retrying mkdir never ends).
      ["/proc/revwise-data", "/proc/revwise-data cannot be made"],
      [file, `${file} is not a folder`],
      [path.join(file, "data"), `ENOTDIR: not a directory, mkdir '${path.join(file, "data")}'`],
    ]) {
      const { code, stderr } = await runToExit({ DATA_DIR: dataDir! });
      expect(code).toBe(1);
      expect(stderr).toBe(
        `Revwise could not start: DATA_DIR ${dataDir} cannot be used: ${reason}\n`,
      );
    }
  });

  it("refuses to start a shared deployment without SITE_URL, in one line", async () => {
    const { code, stderr } = await runToExit({
      DATABASE_URL: "postgres://postgres@127.0.0.1:5432/test",
      JWT_SECRET: "x".repeat(32),
      DATA_DIR: tempDir(),
    });
    expect(code).toBe(1);
    expect(stderr.trim()).toBe(
      "Invalid configuration: SITE_URL must be set when DATABASE_URL is set (every instance of a shared deployment needs the same one)",
    );
  });

  it("refuses a MAIL_FROM that would add a header to every email, in one line naming it", async () => {
    // A server that starts anyway is stopped once ready (exit code 0), so the test fails quickly.
    const { code, stderr } = await runToExit(
      { MAIL_FROM: "x\r\nBcc: evil@example.com", DATA_DIR: tempDir() },
      { stopWhen: /Revwise is ready/ },
    );
    expect(code).toBe(1);
    expect(stderr).toMatch(/^Invalid configuration: MAIL_FROM [^\r\n]+\n$/);
  });

  it("stops with one line naming REDIS_URL and its address, without its password, when Redis cannot be reached", async () => {
    const { code, stderr } = await runToExit(
      {
        ...redisDeployment,
        REDIS_URL: "redis://:hunter2@127.0.0.1:1/0",
        DATA_DIR: tempDir(),
      },
      { stopWhen: /Revwise is ready/ },
    );
    expect(code).toBe(1);
    expect(stderr).toMatch(/^Revwise could not start: [^\n]*REDIS_URL[^\n]*\n$/);
    expect(stderr).toContain("127.0.0.1:1");
    expect(stderr).not.toContain("hunter2");
  });

  it.skipIf(!haveRedis)(
    "stops with one line naming REDIS_URL when Redis refuses its database number",
    async () => {
      // No Redis has a million databases: SELECT is refused, nothing is read or written.
      const url = new URL(TEST_REDIS_URL);
      url.pathname = "/1000000";
      const { code, stderr } = await runToExit(
        {
          ...redisDeployment,
          REDIS_URL: url.toString(),
          DATA_DIR: tempDir(),
        },
        { stopWhen: /Revwise is ready/ },
      );
      expect(code).toBe(1);
      expect(stderr).toMatch(/^Revwise could not start: [^\n]*REDIS_URL[^\n]*1000000[^\n]*\n$/);
    },
  );

  it("shows emails in the dev mailbox under npm start without SMTP on loopback, and prints its URL", async () => {
    const dataDir = tempDir();
    const server = await startServer({ DATA_DIR: dataDir, SITE_DIR: path.join(dataDir, "none") });
    try {
      const line = server.logs.find((l) => l.includes("emails are shown at"));
      const url = /emails are shown at (http:\/\/\S+?\/_dev\/mailbox)/.exec(line ?? "")?.[1];
      expect(url).toBe(`${server.url}/_dev/mailbox`);
      const signup = await fetch(`${server.url}/auth/v1/signup`, {
        method: "POST",
        headers: { apikey: server.anonKey, "content-type": "application/json" },
        body: JSON.stringify({
          email: "newcomer@revwise.example",
          password: "a-Long-passphrase-42",
        }),
      });
      expect(signup.status).toBe(200);
      // The confirmation email is listed once the mail worker delivered it to the mailbox.
      for (let i = 0; ; i++) {
        const page = await (await fetch(url!)).text();
        if (page.includes("newcomer@revwise.example")) break;
        if (i > 100) throw new Error(`no email in the mailbox:\n${page}`);
        await new Promise((r) => setTimeout(r, 100));
      }
    } finally {
      await server.stop("SIGTERM");
    }
  });

  it("writes readable lines to a terminal and JSON lines to a pipe", async () => {
    const dataDir = tempDir();
    const env = { DATA_DIR: dataDir, SITE_DIR: path.join(dataDir, "none") };
    const json = await startServer(env);
    await json.stop("SIGTERM");
    const ready = json.logs.find((l) => l.includes("Revwise is ready"))!;
    expect(JSON.parse(ready)).toMatchObject({ level: 30, msg: "Revwise is ready" });

    // script(1) gives the server a pseudo-terminal as its output; one request is made once it
    // listens, and its line is waited for.
    const port = await freePort();
    const asking = setInterval(() => {
      fetch(`http://127.0.0.1:${port}/auth/v1/health`).catch(() => {});
    }, 200);
    const { stdout } = await runToExit(
      { ...env, PORT: String(port), NODE_ENV: "production", SHUTDOWN_DRAIN_MS: "0" },
      { terminal: true, stopWhen: /GET \/auth\/v1\/health 200 \d+ ms \[[0-9a-f-]{36}\]/ },
    ).finally(() => clearInterval(asking));
    const readable = stdout.split(/\r?\n/).find((l) => l.includes("Revwise is ready"));
    expect(readable).toBeDefined();
    expect(readable).not.toMatch(/^\s*\{/);
    // Time, level and message, e.g. "[14:02:03] INFO: Revwise is ready".
    expect(stripVTControlCharacters(readable!)).toMatch(
      /^\[\d\d:\d\d:\d\d\] INFO.*: Revwise is ready/,
    );
    // A request as one line, its id in brackets at the end (the id the answer carried).
    const request = stdout.split(/\r?\n/).find((l) => l.includes("GET /auth/v1/health"));
    expect(stripVTControlCharacters(request!)).toMatch(
      /^\[\d\d:\d\d:\d\d\] INFO.*: GET \/auth\/v1\/health 200 \d+ ms \[[0-9a-f-]{36}\]$/,
    );
  });

  it("says clearly when PostgreSQL cannot be reached", async () => {
    const { code, stderr } = await runToExit({
      ...sharedDeploymentEnv("postgres://nobody@127.0.0.1:1/none"),
      DATA_DIR: tempDir(),
    });
    expect(code).toBe(1);
    expect(stderr).toMatch(/^Revwise could not start: .*ECONNREFUSED/m);
  });
});
