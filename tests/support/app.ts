// Builds the real app for server tests (app.inject), on a database given by the suite.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { buildApp, type AppOptions } from "../../server/app.ts";
import { loadConfig, type Config } from "../../server/config.ts";
import type { Database } from "../../server/db/database.ts";
import { migrate } from "../../server/db/migrate.ts";
import { loadKeys } from "../../server/security/keys.ts";
import type { Site } from "../../server/site/site-files.ts";

export const TEST_JWT_SECRET = "test-secret-that-is-long-enough-for-hs256-0123456789";

export function tempDir(prefix = "revwise-test-"): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), prefix));
}

export function testConfig(env: Record<string, string> = {}): Config {
  return loadConfig({
    NODE_ENV: "test",
    LOG_LEVEL: "silent",
    DATA_DIR: tempDir(),
    JWT_SECRET: TEST_JWT_SECRET,
    ...env,
  });
}

export async function buildTestApp(
  db: Database,
  opts: { env?: Record<string, string>; site?: Site | null } & Pick<AppOptions, "fastPath"> = {},
) {
  const config = testConfig(opts.env);
  await migrate(db);
  const keys = await loadKeys({ jwtSecret: config.jwtSecret, dataDir: config.dataDir });
  return buildApp({ config, db, keys, site: opts.site ?? null, fastPath: opts.fastPath });
}
