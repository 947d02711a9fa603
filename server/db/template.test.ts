// The template of a new embedded database: it holds exactly what initdb and the migrations make,
// it is used only for a new folder and the migrations it was made from, and a damaged one is set aside.
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { tempDir } from "../../tests/support/app.ts";
import type { Database } from "./database.ts";
import { makeTemplate } from "./make-template.ts";
import { migrate, readMigrations, type Migration } from "./migrate.ts";
import { openPglite } from "./pglite.ts";
import { TEMPLATE_DIR, templateFile, templateFor } from "./template.ts";

/** Every column of the app's schemas, with its type, default and nullability, and every index. */
async function schemaOf(db: Database) {
  const columns = await db.query(
    `SELECT table_schema, table_name, column_name, data_type, column_default, is_nullable
       FROM information_schema.columns
      WHERE table_schema NOT IN ('pg_catalog', 'information_schema')
      ORDER BY 1, 2, 3`,
  );
  const indexes = await db.query(
    `SELECT schemaname, tablename, indexname, indexdef FROM pg_indexes
      WHERE schemaname NOT IN ('pg_catalog', 'information_schema') ORDER BY 1, 2, 3`,
  );
  const migrations = await db.query("SELECT version, name FROM schema_migrations ORDER BY version");
  return { columns, indexes, migrations };
}

describe("embedded database template", () => {
  let migrations: Migration[];
  let dir: string;
  let template: string;

  beforeAll(async () => {
    migrations = await readMigrations();
    dir = tempDir();
    template = templateFile(migrations, dir);
    await makeTemplate(migrations, template);
  });
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  it("opens a new folder with the schema that initdb and every migration make", async () => {
    const fromScratch = await openPglite(undefined);
    await migrate(fromScratch, migrations);
    const expected = await schemaOf(fromScratch);
    await fromScratch.close();

    const folder = path.join(dir, "new");
    const db = await openPglite(folder, templateFor(folder, migrations, dir));
    expect(await migrate(db, migrations)).toEqual([]);
    expect(await schemaOf(db)).toEqual(expected);
    expect(expected.columns.length).toBeGreaterThan(50);
    await db.query("INSERT INTO public.newsletter_subscribers (email) VALUES ($1)", ["a@b.co"]);
    await db.close();

    // A copy, not a link: the folder keeps its rows and the template stays empty.
    const reopened = await openPglite(folder);
    expect(await reopened.query("SELECT email FROM public.newsletter_subscribers")).toEqual([
      { email: "a@b.co" },
    ]);
    await reopened.close();
    const other = await openPglite(undefined, template);
    expect(await other.query("SELECT email FROM public.newsletter_subscribers")).toEqual([]);
    await other.close();
  });

  it("is used only for a folder without a database and for the migrations it was made from", async () => {
    const folder = path.join(dir, "existing");
    expect(templateFor(folder, migrations, dir)).toBe(template);
    const db = await openPglite(folder);
    await db.close();
    expect(templateFor(folder, migrations, dir)).toBeUndefined();

    const changed = [...migrations, { version: 9999, name: "later", sql: "SELECT 1" }];
    expect(templateFile(changed, dir)).not.toBe(template);
    expect(templateFor(path.join(dir, "fresh"), changed, dir)).toBeUndefined();
  });

  it("sets a damaged template aside and creates the database as without one", async () => {
    const damaged = path.join(dir, "damaged.tar.gz");
    fs.writeFileSync(damaged, fs.readFileSync(template).subarray(0, 100_000));
    const folder = path.join(dir, "from-damaged");
    fs.mkdirSync(folder);
    const db = await openPglite(folder, damaged);
    expect(await migrate(db, migrations)).toEqual(migrations.map((m) => m.version));
    expect(await db.query("SELECT count(*)::int AS n FROM public.newsletter_subscribers")).toEqual([
      { n: 0 },
    ]);
    await db.close();
  });

  it("is looked for beside the installed packages, whatever folder the server starts in", () => {
    // An absolute path into this checkout's node_modules, not one relative to the working directory.
    expect(TEMPLATE_DIR).toBe(path.resolve("node_modules/.cache/revwise"));
  });
});
