// Where the JSON log lines go: gathered in memory and written to the file descriptor (stdout) in
// one write per 16 KiB or per quarter of a second, whichever comes first, and whatever is left when
// the process exits, also after an uncaught error (a SIGKILL loses at most the last quarter of a
// second). A line costs an array push: pino's own destination (sonic-boom 4) measures the bytes
// of its whole pending batch again on every line, which made the access line the largest cost of
// a static request (decision 0051).
// The writes are synchronous, so nothing is ever in flight when the process exits, and no line is
// written twice or lost between batches. A pipe whose reader is slow keeps the batch until it
// takes it (a full non-blocking pipe answers EAGAIN: the rest waits for the next write); a reader
// that went away (EPIPE) ends the logging instead of stopping the server.
import fs from "node:fs";

const BATCH_CHARS = 16 * 1024;
const FLUSH_MS = 250;
/** How long the exit waits for a full pipe's reader before leaving the rest unwritten. */
const EXIT_PATIENCE_MS = 1000;

const open = new Set<LogLines>();
let exitListening = false;

export class LogLines {
  private pending: string[] = [];
  private pendingChars = 0;
  /** Bytes a full pipe did not take yet; written before anything pending. */
  private held: Buffer | undefined;
  private broken = false;
  private readonly fd: number;
  private readonly batchChars: number;

  constructor(fd: number, opts: { batchChars?: number; flushMs?: number } = {}) {
    this.fd = fd;
    this.batchChars = opts.batchChars ?? BATCH_CHARS;
    setInterval(() => this.writeOut(0), opts.flushMs ?? FLUSH_MS).unref();
    open.add(this);
    if (!exitListening) {
      exitListening = true;
      process.on("exit", () => open.forEach((lines) => lines.writeOut(EXIT_PATIENCE_MS)));
    }
  }

  /** pino's destination interface: one serialized line, with its newline. */
  write(line: string): boolean {
    if (this.broken) return true;
    this.pending.push(line);
    this.pendingChars += line.length;
    if (this.pendingChars >= this.batchChars) this.writeOut(0);
    return true;
  }

  /** Writes what is pending now (pino's logger.flush calls it). */
  flush(done?: (err?: Error) => void) {
    this.writeOut(0);
    done?.();
  }

  /** Writes what is pending, waiting up to `patienceMs` for a full pipe to take it. */
  private writeOut(patienceMs: number) {
    if (this.broken || (this.pendingChars === 0 && !this.held)) return;
    const fresh = this.pendingChars > 0 ? Buffer.from(this.pending.join("")) : undefined;
    this.pending = [];
    this.pendingChars = 0;
    let data = this.held && fresh ? Buffer.concat([this.held, fresh]) : (this.held ?? fresh!);
    this.held = undefined;
    const deadline = performance.now() + patienceMs;
    while (data.length > 0) {
      try {
        data = data.subarray(fs.writeSync(this.fd, data));
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== "EAGAIN") {
          this.broken = true; // nobody reads the log any more (EPIPE), or it is closed
          open.delete(this);
          return;
        }
        if (performance.now() >= deadline) {
          this.held = data;
          return;
        }
        Atomics.wait(PAUSE, 0, 0, 1);
      }
    }
  }
}

const PAUSE = new Int32Array(new SharedArrayBuffer(4));
