// Tells a runtime crash from a test verdict in a finished vitest run. A test file's process that
// dies from a memory fault (SIGSEGV, SIGBUS) has met a fault in native or WebAssembly code (V8
// running PGlite's PostgreSQL, a native addon); one that dies from SIGTRAP has met a fatal error
// inside V8 itself (a failed check of the engine, which aborts with a trap instruction). No test
// of ours asks for either, and the same file does not meet it again in a new process (decision
// 0035). Everything else is a verdict.
import type { TestModule } from "vitest/node";

/** At most this many crashed files are run again: more than that in one run is no accident. */
export const MAX_CRASHED_FILES = 2;

const POOL_ERROR = /^\[vitest-pool\]: Worker \w+ emitted error\.$/;
const FAULT =
  /^Worker exited unexpectedly with signal (SIGSEGV|SIGBUS|SIGTRAP) .*while running test file (\S.*)$/;

export interface Crash {
  file: string;
  signal: string;
}

/** The crash an unhandled error of the run reports, or null when it is anything else. */
export function crashOf(error: unknown): Crash | null {
  const { message, cause } = (error ?? {}) as { message?: unknown; cause?: { message?: unknown } };
  if (typeof message !== "string" || !POOL_ERROR.test(message)) return null;
  const match = typeof cause?.message === "string" ? FAULT.exec(cause.message) : null;
  // "test files a, b": a process that ran several files at once; which one crashed is unknown.
  if (!match || cause!.message!.toString().includes("running test files ")) return null;
  return { file: match[2]!, signal: match[1]! };
}

/**
 * The files to run again when the run failed only because of crashes: every unhandled error is
 * a crash, no test failed (in the crashed files either, before they died), every other file
 * passed or was skipped, and there are at most MAX_CRASHED_FILES of them. Null otherwise.
 */
export function crashesToRunAgain(
  modules: readonly TestModule[],
  unhandledErrors: readonly unknown[],
): Crash[] | null {
  const crashes = unhandledErrors.map(crashOf);
  if (crashes.length === 0 || crashes.length > MAX_CRASHED_FILES) return null;
  if (crashes.some((crash) => crash === null)) return null;
  const crashed = new Set(crashes.map((crash) => crash!.file));
  for (const module of modules) {
    if ([...module.children.allTests("failed")].length > 0) return null;
    const state = module.state();
    if (!crashed.has(module.moduleId) && state !== "passed" && state !== "skipped") return null;
  }
  return crashes as Crash[];
}
