import os from "node:os";
import { defineConfig } from "vitest/config";

// Four suites: unit (common/ and app/ in happy-dom), server (app.inject, real PGlite and
// PostgreSQL, real SMTP on loopback; and the scripts' own tests, in Node), e2e (real Chromium against the built site served by the
// real server) and fault (the built server's processes killed, signalled, raced and put behind a
// real load balancer; one file at a time so that their timings hold). `npm test` builds first.
//
// Vitest runs groups one after another (`sequence.groupOrder`), each with one `maxWorkers`; a
// project left with one worker and no group runs after all groups, one file at a time. Unit files
// run first on every core; server and browser files then share one pool of one file more than the
// cores (each file has its own databases, servers, browser and ports, and mostly waits: for PGlite,
// PostgreSQL, SMTP, Chromium); the fault files run last, alone.
const cores = os.availableParallelism();

export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: "unit",
          include: ["common/**/*.test.ts", "app/**/*.test.{ts,tsx}"],
          environment: "happy-dom",
          setupFiles: ["tests/support/unit-setup.ts"],
          maxWorkers: cores,
          sequence: { groupOrder: 0 },
        },
      },
      {
        test: {
          name: "server",
          include: ["server/**/*.test.ts", "scripts/**/*.test.ts"],
          environment: "node",
          globalSetup: ["tests/support/server-setup.ts"],
          // Client addresses start at random in each file (Redis is shared).
          maxWorkers: cores + 1,
          sequence: { groupOrder: 1 },
          testTimeout: 60_000,
          hookTimeout: 60_000,
        },
      },
      {
        test: {
          name: "e2e",
          include: ["tests/e2e/**/*.test.ts"],
          environment: "node",
          // Three browsers and their servers share two cores with the server files.
          testTimeout: 120_000,
          hookTimeout: 120_000,
          maxWorkers: cores + 1,
          sequence: { groupOrder: 1 },
          // A page reaches each state the tests wait for on its own time: a busy machine loads an
          // island's code in seconds, not the default second of expect.poll.
          expect: { poll: { timeout: 10_000 } },
        },
      },
      {
        test: {
          name: "fault",
          include: ["tests/fault/**/*.test.ts"],
          environment: "node",
          testTimeout: 60_000,
          hookTimeout: 120_000,
          fileParallelism: false,
        },
      },
    ],
  },
});
