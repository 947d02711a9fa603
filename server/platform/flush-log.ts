// The last lines of the log, written before the process exits (server.ts). Type imports only:
// server.ts loads this before the database starts, ahead of Fastify and pino.
import type { FastifyBaseLogger } from "fastify";

/**
 * Writes out the lines still buffered, before the process exits. Left to the exit itself, pino
 * writes them with sonic-boom's flushSync, which (in 4.x) retries a broken pipe forever: a server
 * whose log reader has gone would never exit. Flushed asynchronously, a broken pipe reaches pino's
 * own handler, which stops logging instead. Resolves after `timeoutMs` at the latest.
 */
export function flushLog(log: FastifyBaseLogger, timeoutMs = 1000): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, timeoutMs);
    const flush = (log as { flush?: (cb: () => void) => void }).flush;
    if (!flush) return resolve();
    flush.call(log, () => {
      clearTimeout(timer);
      resolve();
    });
  });
}
