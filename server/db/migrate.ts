// Numbered SQL migrations (server/db/migrations/NNNN_name.sql), applied in order at start, each
// in its own transaction, once. An advisory lock lets several instances start at the same time.
import fs from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { Database, Queryable } from "./database.ts";

const MIGRATIONS_DIR = path.join(path.dirname(fileURLToPath(import.meta.url)), "migrations");
const LOCK_KEY = 4_215_523; // any constant shared by every instance

export type Migration = { version: number; name: string; sql: string };

export async function readMigrations(dir = MIGRATIONS_DIR): Promise<Migration[]> {
  const files = (await fs.readdir(dir)).filter((f) => /^\d{4}_[a-z0-9_]+\.sql$/.test(f)).sort();
  return Promise.all(
    files.map(async (file) => ({
      version: Number(file.slice(0, 4)),
      name: file.slice(5, -4),
      sql: await fs.readFile(path.join(dir, file), "utf8"),
    })),
  );
}

/** The versions of the migrations applied to a database. */
export async function appliedVersions(q: Queryable): Promise<number[]> {
  return (await q.query<{ version: number }>("SELECT version FROM schema_migrations")).map(
    (r) => r.version,
  );
}

/** Applies the migrations not yet applied; returns the versions it applied. */
export async function migrate(db: Database, migrations?: Migration[]): Promise<number[]> {
  const all = migrations ?? (await readMigrations());
  return db.transaction(async (tx) => {
    await tx.query("SELECT pg_advisory_xact_lock($1)", [LOCK_KEY]);
    await tx.exec(`CREATE TABLE IF NOT EXISTS schema_migrations (
      version integer PRIMARY KEY,
      name text NOT NULL,
      applied_at timestamptz NOT NULL DEFAULT now()
    )`);
    const done = new Set(await appliedVersions(tx));
    const applied: number[] = [];
    for (const m of all) {
      if (done.has(m.version)) continue;
      await tx.exec(m.sql);
      await tx.query("INSERT INTO schema_migrations (version, name) VALUES ($1, $2)", [
        m.version,
        m.name,
      ]);
      applied.push(m.version);
    }
    return applied;
  });
}
