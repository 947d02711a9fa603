// A deployment on PostgreSQL is backed up with PostgreSQL's own tools, as the README's "Backups
// and restore" says: `pg_dump --format=custom` of the database while an instance takes inserts,
// then `pg_restore --no-owner --exit-on-error` into a new, empty database, on which an instance
// starts and serves; every row acknowledged before the dump started is there.
import { execFile } from "node:child_process";
import path from "node:path";
import { promisify } from "node:util";
import pg from "pg";
import { afterAll, describe, expect, it } from "vitest";
import { tempDir } from "../support/app.ts";
import { insertLoad } from "../support/insert-load.ts";
import { createTestDatabase, postgresAvailable, type TestDatabase } from "../support/postgres.ts";
import { sharedDeploymentEnv, startServer, type RunningServer } from "../support/server-process.ts";

const run = promisify(execFile);

async function emailsIn(url: string): Promise<Set<string>> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query<{ email: string }>(
      "SELECT email FROM public.newsletter_subscribers",
    );
    return new Set(rows.map((r) => r.email));
  } finally {
    await client.end();
  }
}

describe.skipIf(!(await postgresAvailable()))("PostgreSQL backed up with its own tools", () => {
  const databases: TestDatabase[] = [];
  const servers: RunningServer[] = [];
  const envOf = (url: string) => ({
    ...sharedDeploymentEnv(url),
    DATA_DIR: tempDir(),
    SITE_DIR: path.join(tempDir(), "no-site"),
    TRUST_PROXY: "loopback",
  });
  afterAll(async () => {
    for (const server of servers) await server.stop("SIGKILL");
    for (const database of databases) await database.drop();
  });

  it("dumps under insert load and restores into a new database that an instance serves", async () => {
    const source = await createTestDatabase();
    const target = await createTestDatabase();
    databases.push(source, target);
    const server = await startServer(envOf(source.url));
    servers.push(server);

    const load = insertLoad([server.url], server.anonKey, { tag: "pg-dump", max: 1_000_000 });
    while (load.acknowledged.length < 100) await new Promise((r) => setTimeout(r, 20));
    const before = [...load.acknowledged];
    const dump = path.join(tempDir(), "revwise.dump");
    await run("pg_dump", ["--format=custom", `--file=${dump}`, source.url]);
    const during = load.acknowledged.length - before.length;
    await load.stop();
    expect(load.statuses.filter((s) => s !== 201)).toEqual([]);
    expect(during).toBeGreaterThan(0);

    await run("pg_restore", ["--no-owner", "--exit-on-error", `--dbname=${target.url}`, dump]);
    const restored = await startServer(envOf(target.url));
    servers.push(restored);
    const after = insertLoad([restored.url], restored.anonKey, { tag: "pg-restored", max: 3 });
    await after.done;
    expect(after.statuses).toEqual([201, 201, 201]);

    const stored = await emailsIn(target.url);
    expect(before.filter((e) => !stored.has(e))).toEqual([]);
    expect(after.acknowledged.filter((e) => !stored.has(e))).toEqual([]);
  });
});
