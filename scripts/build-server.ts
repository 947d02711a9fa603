// `npm run build:server`: the server as `npm start` runs it.
//  1. One bundle of server/ and common/ (packages stay in node_modules) in build/backend: a start
//     loads a few JavaScript files instead of stripping the types of every source file. The
//     database opens before the rest of the server loads, as in the sources: app.ts is a chunk of
//     its own, imported once the database starts.
//  2. The template of a new embedded database (server/db/template.ts), when it is missing.
import { build } from "esbuild";
import fs from "node:fs";
import path from "node:path";
import { makeTemplate } from "../server/db/make-template.ts";
import { readMigrations } from "../server/db/migrate.ts";
import { TEMPLATE_DIR, templateFile } from "../server/db/template.ts";
import { PARTS, writeStamp } from "./build-inputs.mjs";

const OUT = path.dirname(PARTS.server.output);
const started = performance.now();

fs.rmSync(OUT, { recursive: true, force: true });
await build({
  entryPoints: { server: "server/server.ts", "pglite-thread": "server/db/pglite-thread.mjs" },
  outdir: OUT,
  outExtension: { ".js": ".mjs" },
  bundle: true,
  splitting: true,
  format: "esm",
  platform: "node",
  target: "node24",
  packages: "external",
  sourcemap: "linked",
  logLevel: "warning",
});
// The bundle finds the migrations beside itself, as migrate.ts finds them beside its source.
fs.cpSync("server/db/migrations", path.join(OUT, "migrations"), { recursive: true });

const migrations = await readMigrations();
const template = templateFile(migrations);
if (!fs.existsSync(template)) {
  // Templates of older migrations or PGlite releases are of no further use.
  for (const old of fs.existsSync(TEMPLATE_DIR) ? fs.readdirSync(TEMPLATE_DIR) : [])
    if (old.startsWith("pglite-")) fs.rmSync(path.join(TEMPLATE_DIR, old), { force: true });
  await makeTemplate(migrations, template);
}

writeStamp("server");
console.log(
  `server built in ${OUT} (${Math.round(performance.now() - started)} ms); database template ${template}`,
);
