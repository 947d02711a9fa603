// A small build of the site, written by the test that serves it: pages (with an inline script
// and a JSON-LD block), the 404 pages, a hashed script with its compressed copies, an icon and a
// sitemap. And a smaller site held in memory, for tests about every route (memorySite).
import fs from "node:fs";
import path from "node:path";
import zlib from "node:zlib";
import type { FastifyInstance } from "fastify";
import {
  ANON_KEY_PLACEHOLDER,
  PROVIDERS_PLACEHOLDER,
  SITE_URL_PLACEHOLDER,
} from "../../common/site-build.ts";
import type { AppOptions } from "../../server/app.ts";
import type { Database } from "../../server/db/database.ts";
import { loadSite, type Site, type SiteFile } from "../../server/site/site-files.ts";
import { buildTestApp, tempDir } from "./app.ts";

export const INLINE = 'window.__ctx = {"a":1};';

/** Writes one file of a build at `rel` under `dir`, making its folders. */
function putFile(dir: string, rel: string, body: string | Buffer) {
  fs.mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true });
  fs.writeFileSync(path.join(dir, rel), body);
}

export function writeFixture(dir: string) {
  const put = (rel: string, body: string | Buffer) => putFile(dir, rel, body);
  const html = (title: string) =>
    `<!doctype html><html data-providers="${PROVIDERS_PLACEHOLDER}"><head><meta name="revwise-anon-key" content="${ANON_KEY_PLACEHOLDER}"><link rel="canonical" href="${SITE_URL_PLACEHOLDER}/faq"><title>${title}</title></head><body><h1>${title}</h1><p>${"Revwise logs every call. ".repeat(60)}</p><script>${INLINE}</script><script type="application/ld+json">{"@type":"Organization"}</script><script type="module" src="/assets/entry-abc123.js"></script></body></html>`;
  put("index.html", html("Home"));
  put("faq/index.html", html("FAQ"));
  put("blog/index.html", html("Blog"));
  put("blog/ai-sales/index.html", html("Post"));
  put("blog/ai-sales.data", "[{}]");
  put("__not-found/index.html", html("Page not found"));
  put("blog/__missing/index.html", html("Blog Post Not Found"));
  put("__spa-fallback.html", html("fallback"));
  const js = `console.log(${JSON.stringify("x".repeat(2000))});`;
  put("assets/entry-abc123.js", js);
  put("assets/entry-abc123.js.br", zlib.brotliCompressSync(js));
  put("assets/entry-abc123.js.gz", zlib.gzipSync(js));
  put("favicon.svg", "<svg xmlns='http://www.w3.org/2000/svg'/>");
  put(
    "sitemap.xml",
    `<urlset><url><loc>${SITE_URL_PLACEHOLDER}/faq</loc></url>${"<!-- pad -->".repeat(100)}</urlset>`,
  );
}

/** A body as sent with Content-Encoding `encoding`, decoded. */
export function decoded(encoding: string | undefined, body: Buffer): Buffer {
  if (encoding === "br") return zlib.brotliDecompressSync(body);
  if (encoding === "gzip") return zlib.gunzipSync(body);
  return body;
}

/** The app serving the fixture build. */
export async function fixtureApp(
  db: Database,
  opts: Pick<AppOptions, "fastPath"> & {
    env?: Record<string, string>;
    /** More files of the build, by path (a test's own). */
    files?: Record<string, Buffer>;
  } = {},
): Promise<FastifyInstance> {
  const dir = tempDir("revwise-site-");
  writeFixture(dir);
  const { files = {}, ...appOpts } = opts;
  for (const [rel, body] of Object.entries(files)) putFile(dir, rel, body);
  const site = await loadSite(dir, {
    anonKey: "the.anon.key",
    siteUrl: "https://revwise.example",
    providers: ["google", "keycloak"],
  });
  return buildTestApp(db, { ...appOpts, site });
}

/**
 * A site of three pages and its 404s held in memory, enough for the site's routes to answer as
 * they do in production, for tests about every route rather than the site's files.
 */
export function memorySite(): Site {
  const page = (title: string): SiteFile => ({
    body: Buffer.from(`<!doctype html><title>${title}</title>`),
    br: undefined,
    gzip: undefined,
    type: "text/html; charset=utf-8",
    etag: `"${title}"`,
    cacheControl: "no-cache",
    csp: "default-src 'self'",
  });
  return {
    files: new Map([["/favicon.svg", { ...page("icon"), type: "image/svg+xml" }]]),
    pages: new Map([
      ["/", page("Home")],
      ["/faq", page("FAQ")],
      ["/blog/ai-sales", page("Post")],
    ]),
    notFound: page("Not found"),
    blogNotFound: page("Blog post not found"),
  };
}
