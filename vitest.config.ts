import { defineConfig } from "vitest/config";

// Three suites: unit (common/ and app/ in happy-dom), server (app.inject, real PGlite and
// PostgreSQL, real SMTP on loopback) and e2e (real Chromium against the built site served by the
// real server). `npm test` builds the site first.
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
          include: ["server/**/*.test.ts"],
          environment: "node",
          testTimeout: 30_000,
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
        },
      },
    ],
  },
});
