// First-load JavaScript of a prerendered page: every script the HTML loads before any
// interaction (module scripts, modulepreloads and the modules they import statically), gzip-sized.
import fs from "node:fs";
import path from "node:path";
import zlib from "node:zlib";

export type FirstLoad = {
  files: { file: string; raw: number; gzip: number }[];
  raw: number;
  gzip: number;
};

export function firstLoadJs(siteDir: string, route: string): FirstLoad {
  const htmlFile = path.join(
    siteDir,
    route === "/" ? "index.html" : `${route.slice(1)}/index.html`,
  );
  const html = fs.readFileSync(htmlFile, "utf8");
  const queue = [
    ...[...html.matchAll(/<link rel="modulepreload" href="([^"]+)"/g)].map((m) => m[1]!),
    ...[...html.matchAll(/<script[^>]*src="([^"]+\.js)"/g)].map((m) => m[1]!),
    ...[...html.matchAll(/import\("(\/assets\/[^"]+\.js)"\)/g)].map((m) => m[1]!),
  ];
  const seen = new Set<string>();
  const files: FirstLoad["files"] = [];
  while (queue.length) {
    const url = queue.shift()!;
    if (seen.has(url)) continue;
    seen.add(url);
    const source = fs.readFileSync(path.join(siteDir, url));
    files.push({ file: url, raw: source.length, gzip: zlib.gzipSync(source, { level: 9 }).length });
    // Static imports of this chunk (dynamic import() calls load later, on first use).
    for (const m of source
      .toString("utf8")
      .matchAll(/(?:^|[;\n}])\s*import\s*(?:[\w*{}\s,$]+from\s*)?["']\.\/([^"']+\.js)["']/g)) {
      queue.push(`/assets/${m[1]}`);
    }
  }
  return {
    files,
    raw: files.reduce((s, f) => s + f.raw, 0),
    gzip: files.reduce((s, f) => s + f.gzip, 0),
  };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const route = process.argv[2] ?? "/";
  const result = firstLoadJs("build/client", route);
  for (const f of result.files.sort((a, b) => b.gzip - a.gzip))
    console.log(`${(f.gzip / 1024).toFixed(1).padStart(6)} KB  ${f.file}`);
  console.log(
    `${(result.gzip / 1024).toFixed(1).padStart(6)} KB gzip total first-load JS for ${route} (${(result.raw / 1024).toFixed(0)} KB raw)`,
  );
}
