// The test run of `npm test`: `vitest run` with its arguments, and one allowance. When the only
// thing wrong with the run is that a test file's process died from a memory fault or a fatal
// error inside V8 (see test-crashes.ts and decision 0035), that file runs once more in a new process, and the run
// passes only if it passes then. A failing test, any other error, a second crash or a crash of
// more than two files fails the run exactly as `vitest run` would.
import { parseCLI, startVitest, type Vitest } from "vitest/node";
import { crashesToRunAgain } from "./test-crashes.ts";

const { filter, options } = parseCLI(["vitest", "run", ...process.argv.slice(2)]);

async function run(files: string[]): Promise<Vitest> {
  process.exitCode = undefined;
  return startVitest("test", files, { ...options });
}

const first = await run(filter);
const crashes =
  process.exitCode && !first.shouldKeepServer()
    ? crashesToRunAgain(first.state.getTestModules(), first.state.getUnhandledErrors())
    : null;

if (!crashes) {
  await first.exit();
} else {
  const list = crashes.map(({ file, signal }) => `  ${file} (${signal})`).join("\n");
  console.error(
    `\nEvery test that ran passed, but the process of ${crashes.length === 1 ? "this file" : "these files"} died from a runtime fault:\n${list}\nA fault in native or WebAssembly code or in V8 itself, not a test's verdict (docs/decisions/0035-runtime-crashes-in-tests.md); running ${crashes.length === 1 ? "it" : "them"} again in a new process.\n`,
  );
  const again = await run(crashes.map(({ file }) => file));
  console.error(
    process.exitCode
      ? "\nThe files that crashed did not pass when run again: the run fails.\n"
      : "\nThe files that crashed passed when run again: the run passes.\n",
  );
  await again.exit();
}
