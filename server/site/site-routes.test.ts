// Serving the built site, against a small fixture build written by the test.
import fs from "node:fs";
import path from "node:path";
import zlib from "node:zlib";
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ANON_KEY_PLACEHOLDER, SITE_URL_PLACEHOLDER } from "../../common/site-build.ts";
import { buildTestApp, tempDir } from "../../tests/support/app.ts";
import { openPglite } from "../db/pglite.ts";
import { inlineScripts, loadSite, pageCsp } from "./site-files.ts";

const INLINE = 'window.__ctx = {"a":1};';

function writeFixture(dir: string) {
  const put = (rel: string, body: string | Buffer) => {
    fs.mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true });
    fs.writeFileSync(path.join(dir, rel), body);
  };
  const html = (title: string) =>
    `<!doctype html><html><head><meta name="revwise-anon-key" content="${ANON_KEY_PLACEHOLDER}"><link rel="canonical" href="${SITE_URL_PLACEHOLDER}/faq"><title>${title}</title></head><body><h1>${title}</h1><script>${INLINE}</script><script type="application/ld+json">{"@type":"Organization"}</script><script type="module" src="/assets/entry-abc123.js"></script></body></html>`;
  put("index.html", html("Home"));
  put("faq/index.html", html("FAQ"));
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

describe("site serving", () => {
  let app: FastifyInstance;
  const db = openPglite(undefined);
  beforeAll(async () => {
    const dir = tempDir("revwise-site-");
    writeFixture(dir);
    const site = await loadSite(dir, {
      anonKey: "the.anon.key",
      siteUrl: "https://revwise.example",
    });
    app = await buildTestApp(await db, { site });
  });
  afterAll(async () => {
    await app.close();
    await (await db).close();
  });

  it("serves every prerendered page with 200, no-cache, an ETag and the values filled in", async () => {
    for (const [url, title] of [
      ["/", "Home"],
      ["/faq", "FAQ"],
      ["/blog/ai-sales", "Post"],
    ] as const) {
      const res = await app.inject({ url });
      expect(res.statusCode, url).toBe(200);
      expect(res.headers["content-type"]).toBe("text/html; charset=utf-8");
      expect(res.headers["cache-control"]).toBe("no-cache");
      expect(res.headers.etag).toMatch(/^"[\w-]+"$/);
      expect(res.body).toContain(`<h1>${title}</h1>`);
      expect(res.body).toContain('content="the.anon.key"');
      expect(res.body).toContain('href="https://revwise.example/faq"');
      expect(res.body).not.toContain(ANON_KEY_PLACEHOLDER);
    }
  });

  it("answers a matching If-None-Match with 304", async () => {
    const first = await app.inject({ url: "/faq" });
    const again = await app.inject({
      url: "/faq",
      headers: { "if-none-match": first.headers.etag as string },
    });
    expect(again.statusCode).toBe(304);
    expect(again.body).toBe("");
  });

  it("gives each page a CSP that allows exactly its own inline scripts", async () => {
    const res = await app.inject({ url: "/faq" });
    const csp = res.headers["content-security-policy"] as string;
    expect(csp).toContain("script-src 'self' 'sha256-");
    expect(csp).not.toMatch(/script-src[^;]*unsafe-inline/);
    expect(csp).toContain("frame-ancestors 'none'");
    expect(inlineScripts(res.body)).toEqual([INLINE]); // JSON-LD is data, not script
    expect(pageCsp(res.body)).toBe(csp);
  });

  it("compresses pages (brotli preferred, gzip otherwise)", async () => {
    const br = await app.inject({
      url: "/faq",
      headers: { "accept-encoding": "gzip, deflate, br" },
    });
    expect(br.headers["content-encoding"]).toBe("br");
    expect(br.headers.vary).toContain("accept-encoding");
    expect(zlib.brotliDecompressSync(br.rawPayload).toString()).toContain("<h1>FAQ</h1>");
    const gz = await app.inject({ url: "/faq", headers: { "accept-encoding": "gzip" } });
    expect(gz.headers["content-encoding"]).toBe("gzip");
    expect(zlib.gunzipSync(gz.rawPayload).toString()).toContain("<h1>FAQ</h1>");
    const none = await app.inject({
      url: "/faq",
      headers: { "accept-encoding": "br;q=0, gzip;q=0" },
    });
    expect(none.headers["content-encoding"]).toBeUndefined();
  });

  it("serves hashed assets as immutable, with the build's precompressed copies", async () => {
    const res = await app.inject({
      url: "/assets/entry-abc123.js",
      headers: { "accept-encoding": "br" },
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers["cache-control"]).toBe("public, max-age=31536000, immutable");
    expect(res.headers["content-type"]).toBe("text/javascript; charset=utf-8");
    expect(res.headers["content-encoding"]).toBe("br");
  });

  it("fills the site URL into generated files such as the sitemap", async () => {
    const res = await app.inject({ url: "/sitemap.xml" });
    expect(res.statusCode).toBe(200);
    expect(res.headers["content-type"]).toBe("application/xml; charset=utf-8");
    expect(res.body).toContain("<loc>https://revwise.example/faq</loc>");
  });

  it("answers unknown pages with 404 and the not-found page", async () => {
    const res = await app.inject({ url: "/no/such/page" });
    expect(res.statusCode).toBe(404);
    expect(res.headers["content-type"]).toBe("text/html; charset=utf-8");
    expect(res.body).toContain("<h1>Page not found</h1>");
    expect(res.headers["content-security-policy"]).toContain("'sha256-");
  });

  it("answers unknown blog posts with 404 and the blog's not-found page", async () => {
    const res = await app.inject({ url: "/blog/not-yet-written" });
    expect(res.statusCode).toBe(404);
    expect(res.body).toContain("<h1>Blog Post Not Found</h1>");
    expect((await app.inject({ url: "/blog/not-yet-written.data" })).statusCode).toBe(404);
  });

  it("does not serve the build's internal files as pages", async () => {
    for (const url of [
      "/__not-found",
      "/blog/__missing",
      "/__spa-fallback.html",
      "/blog/__missing.data",
    ]) {
      expect((await app.inject({ url })).statusCode, url).toBe(404);
    }
  });

  it("answers missing assets with a plain 404, not a page", async () => {
    const res = await app.inject({ url: "/assets/missing-123.js" });
    expect(res.statusCode).toBe(404);
    expect(res.headers["content-type"]).toMatch(/^text\/plain/);
  });

  it("redirects /resources/blog/* permanently to /blog/*, keeping the query", async () => {
    const res = await app.inject({ url: "/resources/blog/ai-sales?utm_source=x" });
    expect(res.statusCode).toBe(301);
    expect(res.headers.location).toBe("/blog/ai-sales?utm_source=x");
  });

  it("redirects a trailing slash to the canonical path", async () => {
    const res = await app.inject({ url: "/faq/" });
    expect(res.statusCode).toBe(301);
    expect(res.headers.location).toBe("/faq");
  });

  it("answers HEAD like GET without a body", async () => {
    const res = await app.inject({ method: "HEAD", url: "/faq" });
    expect(res.statusCode).toBe(200);
    expect(res.body).toBe("");
  });

  it("keeps API 404s in their protocol's shape next to the site", async () => {
    const res = await app.inject({ url: "/auth/v1/unknown" });
    expect(res.statusCode).toBe(404);
    expect(res.json().code).toBe("not_found");
  });

  it("answers malformed percent-encoding with a 400, not a crash", async () => {
    const res = await app.inject({ url: "/%E0%A4%A" });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ statusCode: 400 });
  });

  it("answers other methods on site paths with a JSON 404", async () => {
    const res = await app.inject({ method: "POST", url: "/faq", payload: {} });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toMatchObject({ statusCode: 404, error: "Not Found" });
  });
});
