// /sitemap.xml, generated at build time from the page table and the blog folder.
import { postSummaries } from "../content/blog-posts.ts";
import { pages, type PageInfo } from "../content/pages.ts";
import { absoluteUrl } from "../lib/site-url.ts";

export function loader() {
  const entries = [
    ...Object.values(pages)
      .filter((p: PageInfo) => !p.noindex)
      .map((p) => ({ loc: absoluteUrl(p.path), lastmod: undefined as string | undefined })),
    ...postSummaries().map((p) => ({ loc: absoluteUrl(`/blog/${p.slug}`), lastmod: p.date })),
  ];
  const body = entries
    .map(
      (e) =>
        `  <url><loc>${e.loc}</loc>${e.lastmod ? `<lastmod>${e.lastmod}</lastmod>` : ""}</url>`,
    )
    .join("\n");
  return new Response(
    `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${body}\n</urlset>\n`,
    {
      headers: { "content-type": "application/xml; charset=utf-8" },
    },
  );
}
