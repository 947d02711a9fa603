// Three instances of the built server on one new PostgreSQL database, with a Send SMS hook on
// loopback: two that a test's requests race on (as a balancer would hand them out), and a third
// that only reads and verifies. For the tests that a code goes once across instances.
import path from "node:path";
import { createClient, type SupabaseClient } from "@supabase/supabase-js";
import { afterAll, beforeAll } from "vitest";
import { loadKeys } from "../../server/security/keys.ts";
import { tempDir, TEST_JWT_SECRET } from "./app.ts";
import { createTestDatabase, type TestDatabase } from "./postgres.ts";
import { sharedDeploymentEnv, startServer, type RunningServer } from "./server-process.ts";
import { startSmsHook, type TestSmsHook } from "./sms-hook.ts";

export type RacingInstances = {
  database: TestDatabase;
  hook: TestSmsHook;
  /** The two instances requests race on. */
  racing: RunningServer[];
  /** The third, which reads and verifies. */
  verifier: RunningServer;
  /** A service-role client of the verifier. */
  admin: SupabaseClient;
};

/**
 * Every request of a racing run comes from 127.0.0.1: these lift the per-client limits and the
 * hour's email and text budgets, which are not what such a run tests.
 */
export const NO_CLIENT_LIMITS: Record<string, string> = {
  RATE_LIMIT_EMAIL_IP: "1000",
  RATE_LIMIT_EMAIL_SENT: "1000",
  GOTRUE_RATE_LIMIT_SMS_SENT: "1000",
  GOTRUE_RATE_LIMIT_OTP: "1000",
  GOTRUE_RATE_LIMIT_VERIFY: "1000",
  GOTRUE_RATE_LIMIT_TOKEN_REFRESH: "1000",
  GOTRUE_MFA_RATE_LIMIT_CHALLENGE_AND_VERIFY: "1000",
};

/**
 * Starts the instances before the suite's tests, with `env` beside the shared deployment's and
 * the hook's settings, and stops them (and drops the database) after. The fields are set once the
 * suite's tests run.
 */
export function useRacingInstances(env: Record<string, string>): RacingInstances {
  const instances = { racing: [] as RunningServer[] } as RacingInstances;
  beforeAll(async () => {
    instances.database = await createTestDatabase();
    instances.hook = await startSmsHook();
    const all = {
      ...sharedDeploymentEnv(instances.database.url),
      ...instances.hook.env,
      ...env,
    };
    const start = () => {
      const dataDir = tempDir();
      return startServer({ ...all, DATA_DIR: dataDir, SITE_DIR: path.join(dataDir, "none") });
    };
    // One after the other: the first applies the migrations.
    instances.verifier = await start();
    instances.racing.push(await start(), await start());
    const { serviceRoleKey } = await loadKeys({ jwtSecret: TEST_JWT_SECRET, dataDir: tempDir() });
    instances.admin = createClient(instances.verifier.url, serviceRoleKey, {
      auth: { persistSession: false, autoRefreshToken: false },
    });
  });
  afterAll(async () => {
    for (const s of [...instances.racing, instances.verifier])
      if (s && s.child.exitCode === null) await s.stop("SIGKILL");
    await instances.hook?.stop();
    await instances.database?.drop();
  });
  return instances;
}
