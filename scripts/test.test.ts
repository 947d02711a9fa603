// `npm test`'s runner (scripts/test.ts) against real vitest runs of the fixture project, whose
// test files really die from SIGSEGV (or V8's fatal error, SIGTRAP): a crash alone runs the file
// again, anything else fails.
import { execFile } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { crashOf } from "./test-crashes.ts";

const here = path.dirname(fileURLToPath(import.meta.url));
const scratch = mkdtempSync(path.join(tmpdir(), "runtime-crash-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

let runs = 0;

/** Runs scripts/test.ts on the fixture files named; resolves to its exit code and output. */
function runner(
  files: string[],
  crashKind = "",
): Promise<{ code: number; output: string; marker: string }> {
  const marker = path.join(scratch, `marker-${++runs}`);
  // The runner must not believe it is a worker of this vitest run.
  const env = Object.fromEntries(
    Object.entries(process.env).filter(([name]) => !name.startsWith("VITEST") && name !== "TEST"),
  );
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [path.join(here, "test.ts"), "--root", path.join(here, "fixtures/runtime-crash"), ...files],
      {
        env: { ...env, CRASH_MARKER: marker, CRASH_KIND: crashKind, NO_COLOR: "1" },
        timeout: 50_000,
        maxBuffer: 16 * 1024 * 1024,
      },
      (error, stdout, stderr) => {
        const code = error ? Number((error as { code?: unknown }).code ?? 1) : 0;
        resolve({ code, output: `${stdout}\n${stderr}`, marker });
      },
    );
  });
}

describe("npm test's runner", () => {
  it("runs a file again when its process died from SIGSEGV and every test passed", async () => {
    const { code, output, marker } = await runner(["once", "passes"]);
    expect(existsSync(marker)).toBe(true); // it did crash the first time
    expect(output).toMatch(/once\.check\.ts \(SIGSEGV\)/);
    expect(output).toContain("The files that crashed passed when run again: the run passes.");
    expect(code).toBe(0);
  });

  it("runs a file again when its process died from V8's own fatal error (SIGTRAP)", async () => {
    const { code, output, marker } = await runner(["once", "passes"], "v8-fatal");
    expect(existsSync(marker)).toBe(true);
    expect(output).toMatch(/once\.check\.ts \(SIGTRAP\)/);
    expect(output).toContain("The files that crashed passed when run again: the run passes.");
    expect(code).toBe(0);
  });

  it("fails when the file crashes again", async () => {
    const { code, output } = await runner(["always", "passes"]);
    expect(output).toMatch(/always\.check\.ts \(SIGSEGV\)/);
    expect(output).toContain("did not pass when run again: the run fails.");
    expect(code).toBe(1);
  });

  it("fails without running anything again when a test failed too", async () => {
    const { code, output, marker } = await runner(["once", "fails"]);
    expect(existsSync(marker)).toBe(true);
    expect(output).toContain("expected 2 to be 3");
    expect(output).not.toContain("running it again");
    expect(code).toBe(1);
  });

  it("counts only a fault of one known file as a crash", () => {
    const pool = (cause: string) => ({
      message: "[vitest-pool]: Worker forks emitted error.",
      cause: { message: cause },
    });
    const died = "Worker exited unexpectedly with signal SIGSEGV during started state";
    expect(crashOf(pool(`${died} while running test file /a/b.test.ts`))).toEqual({
      file: "/a/b.test.ts",
      signal: "SIGSEGV",
    });
    expect(crashOf(pool(`${died} while running test files /a.test.ts, /b.test.ts`))).toBeNull();
    expect(
      crashOf(pool(`${died.replace("SIGSEGV", "SIGKILL")} while running test file /a.ts`)),
    ).toBeNull();
    expect(
      crashOf(pool("Worker exited unexpectedly with exit code 1 during started state")),
    ).toBeNull();
    expect(crashOf(new Error("Timeout"))).toBeNull();
  });
});
