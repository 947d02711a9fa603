// Real PostgreSQL for tests: every suite gets its own fresh database, dropped afterwards.
import crypto from "node:crypto";
import pg from "pg";
import { answers } from "./requirements.ts";

export const TEST_DATABASE_URL =
  process.env.TEST_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/test";

let reachable: Promise<boolean> | undefined;

/** True when the test PostgreSQL answers; otherwise warns loudly (or throws under CI=true). */
export function postgresAvailable(): Promise<boolean> {
  reachable ??= answers(
    `PostgreSQL at ${TEST_DATABASE_URL}`,
    "start it (pg_ctlcluster <version> main start) or set TEST_DATABASE_URL",
    async () => {
      const client = new pg.Client({
        connectionString: TEST_DATABASE_URL,
        connectionTimeoutMillis: 3000,
      });
      await client.connect();
      await client.end();
    },
  );
  return reachable;
}

export type TestDatabase = { url: string; drop(): Promise<void> };

export async function createTestDatabase(): Promise<TestDatabase> {
  const name = `rw_test_${crypto.randomBytes(6).toString("hex")}`;
  await withAdmin((c) => c.query(`CREATE DATABASE ${name}`));
  const url = new URL(TEST_DATABASE_URL);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: () =>
      withAdmin((c) => c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)).then(() => {}),
  };
}

async function withAdmin<T>(fn: (c: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: TEST_DATABASE_URL });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}
