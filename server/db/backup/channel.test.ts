// The running server's backup socket: in a folder only its user enters, it answers "backup" with
// the copy its maker returns, one request after another, a failure as one line, anything else
// as an unknown request; it is gone once closed, and a socket left by a killed server is replaced.
import fs from "node:fs";
import net from "node:net";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { tempDir } from "../../../tests/support/app.ts";
import { BackupRefused } from "./backup-file.ts";
import { backupSocketPath, requestBackup, serveBackups } from "./channel.ts";

function ask(socketPath: string, line: string): Promise<string> {
  return new Promise((resolve, reject) => {
    let answer = "";
    const socket = net.connect(socketPath, () => socket.write(line));
    socket.on("data", (d: Buffer) => (answer += d));
    socket.on("end", () => resolve(answer));
    socket.on("error", reject);
  });
}

describe("the backup socket", () => {
  it("answers each request with its own copy, one at a time, in a folder of mode 0700", async () => {
    const dataDir = tempDir();
    const socketPath = backupSocketPath(dataDir)!;
    fs.mkdirSync(path.dirname(socketPath), { mode: 0o755 });
    fs.writeFileSync(socketPath, "left by a killed server");
    let running = 0;
    let made = 0;
    const channel = await serveBackups(dataDir, async () => {
      running++;
      expect(running).toBe(1);
      await new Promise((r) => setTimeout(r, 50));
      running--;
      return Buffer.from(`REVWISE BACKUP copy ${++made}`);
    });
    try {
      expect(fs.statSync(path.dirname(socketPath)).mode & 0o777).toBe(0o700);
      const copies = await Promise.all([1, 2, 3].map(() => requestBackup(dataDir)));
      expect(copies.map(String).sort()).toEqual([1, 2, 3].map((n) => `REVWISE BACKUP copy ${n}`));
      expect(await ask(socketPath, "restore\n")).toBe(
        'error: unknown request (this socket answers "backup")\n',
      );
      expect(await ask(socketPath, "x".repeat(100))).toMatch(/^error: unknown request/);
    } finally {
      await channel.close();
    }
    expect(fs.existsSync(socketPath)).toBe(false);
    const closed = await requestBackup(dataDir).catch((e: unknown) => e);
    expect(closed).toBeInstanceOf(BackupRefused);
    expect((closed as Error).message).toMatch(
      /is in use \(by a server, or another backup or restore under way\) and answers on no backup socket/,
    );
  });

  it("closes at once with a connection that asked nothing, and finishes a backup under way", async () => {
    const dataDir = tempDir();
    let release = () => {};
    let started = () => {};
    const making = new Promise<void>((resolve) => (started = resolve));
    const channel = await serveBackups(dataDir, () => {
      started();
      return new Promise<Buffer>(
        (resolve) => (release = () => resolve(Buffer.from("REVWISE BACKUP late"))),
      );
    });
    const socketPath = backupSocketPath(dataDir)!;
    const idle = net.connect(socketPath);
    const idleClosed = new Promise((resolve) => idle.on("close", resolve));
    idle.on("error", () => {});
    await new Promise((resolve) => idle.on("connect", resolve));
    const asked = requestBackup(dataDir);
    await making;
    const closing = channel.close();
    // Well before the request timeout (10 s) would have closed it.
    await Promise.race([
      idleClosed,
      new Promise((_, reject) => setTimeout(() => reject(new Error("still open")), 2000)),
    ]);
    release();
    expect(String(await asked)).toBe("REVWISE BACKUP late");
    await closing;
    expect(fs.existsSync(socketPath)).toBe(false);
  });

  it("passes a failure on as one line", async () => {
    const dataDir = tempDir();
    const channel = await serveBackups(dataDir, () =>
      Promise.reject(new Error("the disk\nis full")),
    );
    try {
      const failed = await requestBackup(dataDir).catch((e: unknown) => e);
      expect(failed).toBeInstanceOf(BackupRefused);
      expect((failed as Error).message).toBe(
        "the running server could not make a backup: the disk is full",
      );
    } finally {
      await channel.close();
    }
  });

  it("uses a path relative to the working folder when the full one is too long for a socket", () => {
    // 83 + "/control/backup.sock" is 103 bytes, the longest a socket's path may be.
    const deep = path.join(process.cwd(), "d".repeat(83));
    expect(backupSocketPath(deep)).toBe(path.join("d".repeat(83), "control", "backup.sock"));
    expect(backupSocketPath(path.join("/", "d".repeat(200)))).toBeUndefined();
  });
});
