// After `react-router build`: drops React Router's data files, writes brotli and gzip copies of
// every compressible asset, so the server sends them without compressing per request, and stamps
// the site's build with its inputs.
import fs from "node:fs";
import path from "node:path";
import zlib from "node:zlib";
import { writeStamp } from "./build-inputs.mjs";

const ROOT = path.join(process.env.BUILD_DIR ?? "build", "client");
const COMPRESSIBLE = /\.(js|mjs|css|svg|json|webmanifest|txt|xml|ico)$/;

// React Router prerenders a `.data` file (the loader's data, for its client-side navigation) beside
// every page with a loader and every resource route: /blog.data, /robots.txt.data... The site
// never navigates on the client (decision 0005: pages are documents, islands fetch nothing from
// React Router), so they are dead weight, and the resource routes' ones carry the build's
// placeholder origin, which the server fills into the files it knows, not into these.
let dropped = 0;
for (const entry of fs.readdirSync(ROOT, { recursive: true, withFileTypes: true })) {
  if (!entry.isFile() || !/\.data(\.br|\.gz)?$/.test(entry.name)) continue;
  fs.rmSync(path.join(entry.parentPath, entry.name));
  dropped += 1;
}

let files = 0;
let raw = 0;
let brotli = 0;
for (const entry of fs.readdirSync(ROOT, { recursive: true, withFileTypes: true })) {
  if (!entry.isFile() || !COMPRESSIBLE.test(entry.name)) continue;
  const file = path.join(entry.parentPath, entry.name);
  const body = fs.readFileSync(file);
  if (body.length <= 512) continue;
  const br = zlib.brotliCompressSync(body, {
    params: {
      [zlib.constants.BROTLI_PARAM_QUALITY]: 11,
      [zlib.constants.BROTLI_PARAM_SIZE_HINT]: body.length,
    },
  });
  fs.writeFileSync(`${file}.br`, br);
  fs.writeFileSync(`${file}.gz`, zlib.gzipSync(body, { level: 9 }));
  files += 1;
  raw += body.length;
  brotli += br.length;
}
if (!process.env.BUILD_DIR) writeStamp("site");
console.log(
  `dropped ${dropped} data files; compressed ${files} files: ${(raw / 1024).toFixed(0)} KB → ${(brotli / 1024).toFixed(0)} KB brotli`,
);
