// The log's destination: each line written once and in order, in batches, whatever the process's
// end (an exit, an uncaught error) and whatever its reader does (reads late, goes away).
import { execFileSync, spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { LogLines } from "./log-lines.ts";

const MODULE = path.resolve(import.meta.dirname, "log-lines.ts");
const dir = fs.mkdtempSync(path.join(os.tmpdir(), "log-lines-"));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

const line = (i: number) => `{"n":${i},"msg":"request completed ${"x".repeat(40)}"}\n`;
const expected = (count: number) => Array.from({ length: count }, (_, i) => line(i)).join("");

/** A process that writes `count` lines to its stdout through LogLines, then runs `end`. */
function writer(count: number, end: string, stdout: "pipe" | number) {
  const script = `
    const { LogLines } = await import(${JSON.stringify(MODULE)});
    const lines = new LogLines(1);
    const line = ${line.toString()};
    for (let i = 0; i < ${count}; i++) lines.write(line(i));
    ${end}`;
  return spawn(process.execPath, ["--input-type=module", "-e", script], {
    stdio: ["ignore", stdout, "pipe"],
  });
}

const exited = (child: ReturnType<typeof spawn>) =>
  new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));

describe("log lines", () => {
  it("writes the lines in batches, each once and in order, and the rest when flushed", () => {
    const file = path.join(dir, "batches.log");
    const fd = fs.openSync(file, "w");
    const lines = new LogLines(fd, { batchChars: 1000, flushMs: 60_000 });
    for (let i = 0; i < 100; i++) lines.write(line(i));
    const written = fs.readFileSync(file, "utf8");
    // Whole batches only so far: a write per 1000 characters, not per line.
    expect(written.length).toBeGreaterThanOrEqual(100 * line(0).length - 1000);
    expect(expected(100).startsWith(written)).toBe(true);
    lines.flush();
    expect(fs.readFileSync(file, "utf8")).toBe(expected(100));
    fs.closeSync(fd);
  });

  it("writes a line longer than a batch, and lines of many-byte characters, whole and in order", () => {
    const file = path.join(dir, "long.log");
    const fd = fs.openSync(file, "w");
    const lines = new LogLines(fd, { batchChars: 1000, flushMs: 60_000 });
    const long = `{"msg":"${"y".repeat(50_000)}"}\n`;
    const wide = (i: number) => `{"n":${i},"msg":"${"é€😀".repeat(100)}"}\n`;
    const all = [line(0), long, line(1), ...Array.from({ length: 50 }, (_, i) => wide(i)), line(2)];
    for (const l of all) lines.write(l);
    lines.flush();
    expect(fs.readFileSync(file, "utf8")).toBe(all.join(""));
    fs.closeSync(fd);
  });

  it.each([
    ["an exit", "process.exit(0)", 0],
    ["an uncaught error", "setTimeout(() => { throw new Error('boom'); }, 10)", 1],
  ])("writes every pending line at %s", async (_what, end, code) => {
    const file = path.join(dir, `end-${code}.log`);
    const fd = fs.openSync(file, "w");
    const child = writer(300, end, fd);
    expect(await exited(child)).toBe(code);
    fs.closeSync(fd);
    expect(fs.readFileSync(file, "utf8")).toBe(expected(300));
  });

  it("gives a reader that reads late every line once, in order", async () => {
    const count = 20_000; // more than a pipe holds
    const child = writer(count, "lines.flush(); process.exit(0)", "pipe");
    const exit = exited(child);
    const closed = new Promise((resolve) => child.stdout!.once("close", resolve));
    child.stdout!.pause();
    const chunks: Buffer[] = [];
    await new Promise((resolve) => setTimeout(resolve, 300)); // the pipe fills meanwhile
    child.stdout!.on("data", (c: Buffer) => chunks.push(c));
    child.stdout!.resume();
    expect(await exit).toBe(0);
    await closed;
    expect(Buffer.concat(chunks).toString()).toBe(expected(count));
  });

  it("keeps what a full non-blocking pipe did not take, and writes it first once there is room", () => {
    const fifo = path.join(dir, "full.fifo");
    execFileSync("mkfifo", [fifo]);
    const reader = fs.openSync(fifo, fs.constants.O_RDONLY | fs.constants.O_NONBLOCK);
    const fd = fs.openSync(fifo, fs.constants.O_WRONLY | fs.constants.O_NONBLOCK);
    const lines = new LogLines(fd, { batchChars: 1000, flushMs: 60_000 });
    const read = () => {
      const chunks: Buffer[] = [];
      const chunk = Buffer.alloc(65_536);
      for (;;) {
        try {
          const n = fs.readSync(reader, chunk);
          if (n === 0) break;
          chunks.push(Buffer.from(chunk.subarray(0, n)));
        } catch (err) {
          if ((err as NodeJS.ErrnoException).code === "EAGAIN") break;
          throw err;
        }
      }
      return Buffer.concat(chunks).toString();
    };
    // More than the pipe holds (64 KiB): the rest waits, and later lines go into the batch meanwhile.
    const count = 3000;
    let got = "";
    for (let i = 0; i < count; i++) {
      lines.write(line(i));
      if (i % 1000 === 999) got += read();
    }
    lines.flush();
    got += read();
    lines.flush();
    got += read();
    expect(got).toBe(expected(count));
    fs.closeSync(fd);
    fs.closeSync(reader);
  });

  it("stops logging, not the process, when its reader goes away", async () => {
    const child = writer(
      10,
      `setInterval(() => { for (let i = 0; i < 1000; i++) lines.write(line(i)); lines.flush(); }, 5);
       setTimeout(() => process.exit(0), 500);`,
      "pipe",
    );
    child.stdout!.destroy();
    let stderr = "";
    child.stderr!.on("data", (c: Buffer) => (stderr += c.toString()));
    expect(await exited(child)).toBe(0);
    expect(stderr).toBe("");
  });
});
