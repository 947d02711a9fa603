// The embedded database's own settings, whichever way its folder was made.
import fs from "node:fs";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { tempDir } from "../../tests/support/app.ts";
import { readMigrations } from "./migrate.ts";
import { openPglite, type PgliteDatabase } from "./pglite.ts";
import { templateFor } from "./template.ts";

describe("embedded database", () => {
  const dir = tempDir();
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  it("runs with a 32 MB buffer pool, in a new folder from the template and in a folder made before", async () => {
    const pool = async (db: PgliteDatabase) => {
      const [row] = await db.query<{ shared_buffers: string }>("SHOW shared_buffers");
      await db.close();
      return row!.shared_buffers;
    };
    const folder = path.join(dir, "pglite");
    const template = templateFor(folder, await readMigrations());
    expect(template).toBeDefined();
    expect(await pool(await openPglite(folder, template))).toBe("32MB");
    expect(fs.existsSync(path.join(folder, "PG_VERSION"))).toBe(true);
    expect(await pool(await openPglite(folder))).toBe("32MB");
  });
});
