// After `react-router build`: writes brotli and gzip copies of every compressible asset, so the
// server sends them without compressing per request, and stamps the site's build with its inputs.
import fs from "node:fs";
import path from "node:path";
import zlib from "node:zlib";
import { writeStamp } from "./build-inputs.mjs";

const ROOT = path.join(process.env.BUILD_DIR ?? "build", "client");
const COMPRESSIBLE = /\.(js|mjs|css|svg|json|webmanifest|data|txt|xml|ico)$/;

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
  `compressed ${files} files: ${(raw / 1024).toFixed(0)} KB → ${(brotli / 1024).toFixed(0)} KB brotli`,
);
