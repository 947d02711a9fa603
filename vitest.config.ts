import os from "node:os";
import { defineConfig } from "vitest/config";

// Four suites: unit (common/ and app/ in happy-dom), server (app.inject, real PGlite and
// PostgreSQL, real SMTP on loopback; and the scripts' own tests, in Node), e2e (real Chromium against the built site served by the
// real server) and fault (the built server's processes killed, signalled, raced and put behind a
// real load balancer; one file at a time so that their timings hold). `npm test` builds first.
export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: "unit",
          include: ["common/**/*.test.ts", "app/**/*.test.{ts,tsx}"],
          environment: "happy-dom",
          setupFiles: ["tests/support/unit-setup.ts"],
        },
      },
      {
        test: {
          name: "server",
          include: ["server/**/*.test.ts", "scripts/**/*.test.ts"],
          environment: "node",
          globalSetup: ["tests/support/server-setup.ts"],
          // A server file mostly waits (for its server, SMTP, PGlite's own thread, PostgreSQL):
          // one file more than the cores keeps them busy. Each file has its own databases,
          // servers and ports, and its client addresses start at random (Redis is shared).
          maxWorkers: os.availableParallelism() + 1,
          // A group of its own (vitest runs groups one after another): its maxWorkers differs.
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
          testTimeout: 60_000,
          hookTimeout: 120_000,
          fileParallelism: false,
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
