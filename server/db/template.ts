// The template of a new embedded database: an empty database with every migration applied, made
// by `npm run build` (scripts/build-server.ts) and kept in node_modules/.cache, where rebuilding
// the site (which empties build/) leaves it. A new DATA_DIR starts from a copy of it
// instead of running PostgreSQL's initdb and the migrations (≈ 1 s instead of ≈ 4 s on the 2-core
// VM). Its name carries the PGlite release and the migrations' text, so a template is used only
// for exactly what it was made from; without one, the database is created as before.
import crypto from "node:crypto";
import fs from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import type { Migration } from "./migrate.ts";

function pgliteManifest(): string {
  const entry = createRequire(import.meta.url).resolve("@electric-sql/pglite");
  return path.join(path.dirname(entry), "..", "package.json");
}

/** Beside the installed packages (the node_modules holding PGlite), wherever the server starts. */
export const TEMPLATE_DIR = path.resolve(path.dirname(pgliteManifest()), "../..", ".cache/revwise");

/** The installed PGlite's release (its files are read by the same release, or a compatible one). */
export function pgliteVersion(): string {
  return (JSON.parse(fs.readFileSync(pgliteManifest(), "utf8")) as { version: string }).version;
}

export function templateFile(migrations: readonly Migration[], dir = TEMPLATE_DIR): string {
  const hash = crypto.createHash("sha256").update(`pglite ${pgliteVersion()}\0`);
  for (const m of migrations) hash.update(`${m.version}\0${m.name}\0${m.sql}\0`);
  return path.join(dir, `pglite-${hash.digest("hex").slice(0, 16)}.tar.gz`);
}

/** The template to start `pgliteDir` from: only for a folder that holds no database yet. */
export function templateFor(
  pgliteDir: string,
  migrations: readonly Migration[],
  dir = TEMPLATE_DIR,
): string | undefined {
  if (fs.existsSync(path.join(pgliteDir, "PG_VERSION"))) return undefined;
  const file = templateFile(migrations, dir);
  return fs.existsSync(file) ? file : undefined;
}
