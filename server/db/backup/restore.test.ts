// Restoring a backup into DATA_DIR: a copy of a real data folder comes back whole (its database
// and its files, with their modes); what cannot be restored (a schema this release does not know,
// a database that does not open, an entry outside the data folder, a folder in use or not empty)
// is refused and leaves the folder as it was found.
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { tempDir } from "../../../tests/support/app.ts";
import { lockDataDir } from "../data-dir-lock.ts";
import { migrate, readMigrations } from "../migrate.ts";
import { openPglite, type PgliteDatabase } from "../pglite.ts";
import { templateFor } from "../template.ts";
import { BackupRefused, decodeBackup, encodeBackup } from "./backup-file.ts";
import { restoreDataDir } from "./restore.ts";
import { backupOf } from "./snapshot.ts";

async function refusal(restoring: Promise<unknown>): Promise<string> {
  const err = await restoring.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(BackupRefused);
  return (err as Error).message;
}

const listing = (dir: string) => (fs.existsSync(dir) ? fs.readdirSync(dir).sort() : undefined);

describe("restoring a backup", () => {
  const source = tempDir();
  const backups = tempDir();
  let db: PgliteDatabase;
  const save = (name: string, bytes: Buffer) => {
    fs.writeFileSync(path.join(backups, name), bytes);
    return path.join(backups, name);
  };

  beforeAll(async () => {
    const migrations = await readMigrations();
    const dir = path.join(source, "pglite");
    fs.mkdirSync(dir);
    db = await openPglite(dir, templateFor(dir, migrations));
    await migrate(db, migrations);
    fs.writeFileSync(path.join(source, "jwt-secret"), "the-secret\n", { mode: 0o600 });
    await db.exec("CREATE TABLE public.backup_probe (n integer)");
    await db.query("INSERT INTO public.backup_probe VALUES (1), (2), (3)");
  });
  afterAll(() => db.close());

  it("brings back the database and the data folder's files, as they were", async () => {
    const file = save("whole.rwb", await backupOf(source, db, "running server"));
    const target = path.join(tempDir(), "new");
    const restored = await restoreDataDir(file, target);
    expect(restored.header.source).toBe("running server");
    expect(listing(target)).toEqual(["jwt-secret", "pglite", "server.lock"]);
    expect(fs.readFileSync(path.join(target, "jwt-secret"), "utf8")).toBe("the-secret\n");
    expect(fs.statSync(path.join(target, "jwt-secret")).mode & 0o777).toBe(0o600);
    const copy = await openPglite(path.join(target, "pglite"));
    try {
      expect(await copy.query("SELECT n FROM public.backup_probe ORDER BY n")).toEqual([
        { n: 1 },
        { n: 2 },
        { n: 3 },
      ]);
    } finally {
      await copy.close();
    }
  });

  it("refuses a schema this release does not know, and removes what it wrote", async () => {
    await db.query("INSERT INTO schema_migrations (version, name) VALUES (9999, 'from_later')");
    const file = save("later.rwb", await backupOf(source, db, "running server"));
    await db.query("DELETE FROM schema_migrations WHERE version = 9999");
    const target = path.join(tempDir(), "new");
    expect(await refusal(restoreDataDir(file, target))).toBe(
      `${file} was made by a newer release (its schema has migration 9999, which this one does not know): restore it with that release`,
    );
    expect(listing(target)).toBeUndefined();
  });

  it("refuses a database that does not open, leaving an empty folder empty", async () => {
    const file = save(
      "broken.rwb",
      await encodeBackup(
        {
          made: new Date().toISOString(),
          source: "running server",
          pglite: "0.5.16",
          postgres: "18",
        },
        [
          { name: "pglite", mode: 0o700 },
          { name: "pglite/PG_VERSION", mode: 0o600, data: Buffer.from("18\n") },
        ],
      ),
    );
    const target = tempDir();
    expect(await refusal(restoreDataDir(file, target))).toMatch(
      new RegExp(`^the database in ${file} does not open \\(made by PGlite 0\\.5\\.16\\): `),
    );
    expect(listing(target)).toEqual([]);
  });

  it("refuses entries that belong nowhere in a data folder, before writing anything", async () => {
    const whole = await decodeBackup(fs.readFileSync(path.join(backups, "whole.rwb")), "whole.rwb");
    for (const extra of [
      { name: "server.lock", mode: 0o644, data: Buffer.from("1\n") },
      { name: "elsewhere/file", mode: 0o644, data: Buffer.from("x") },
      { name: "folder", mode: 0o755 },
    ]) {
      const file = save("odd.rwb", await encodeBackup(whole.header, [...whole.entries, extra]));
      const target = path.join(tempDir(), "new");
      expect(await refusal(restoreDataDir(file, target))).toBe(
        `${file} holds an entry that cannot be restored: ${JSON.stringify(extra.name)}`,
      );
      expect(listing(target)).toBeUndefined();
    }
  });

  it("refuses a folder that is not empty, or that a server holds, changing nothing", async () => {
    const file = path.join(backups, "whole.rwb");
    expect(await refusal(restoreDataDir(file, source))).toBe(
      `DATA_DIR ${source} is not empty (it holds jwt-secret, pglite): restore only into an empty folder`,
    );
    expect(listing(source)).toEqual(["jwt-secret", "pglite"]);

    const held = tempDir();
    const unlock = await lockDataDir(held);
    try {
      expect(await refusal(restoreDataDir(file, held))).toMatch(
        /^the embedded database in .* is in use by another Revwise server \(pid \d+\)/,
      );
      expect(listing(held)).toEqual(["server.lock"]);
    } finally {
      await unlock();
    }
  });
});
