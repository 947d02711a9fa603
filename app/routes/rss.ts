// /blog/rss.xml: the blog as an RSS 2.0 feed, generated at build time.
import { postSummaries } from "../content/blog-posts.ts";
import { brand, contact } from "../content/site.ts";
import { absoluteUrl } from "../lib/site-url.ts";

const escape = (s: string) =>
  s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");

export function loader() {
  const items = postSummaries()
    .map((p) => {
      const link = absoluteUrl(`/blog/${p.slug}`);
      return [
        "    <item>",
        `      <title>${escape(p.title)}</title>`,
        `      <link>${link}</link>`,
        `      <guid isPermaLink="true">${link}</guid>`,
        `      <description>${escape(p.description)}</description>`,
        `      <category>${escape(p.category)}</category>`,
        `      <author>${escape(`${contact.email} (${p.author.name})`)}</author>`,
        `      <pubDate>${new Date(`${p.date}T16:00:00Z`).toUTCString()}</pubDate>`,
        "    </item>",
      ].join("\n");
    })
    .join("\n");
  const xml = `<?xml version="1.0" encoding="UTF-8"?>
<rss version="2.0" xmlns:atom="http://www.w3.org/2005/Atom">
  <channel>
    <title>${escape(`${brand.name} blog`)}</title>
    <link>${absoluteUrl("/blog")}</link>
    <atom:link href="${absoluteUrl("/blog/rss.xml")}" rel="self" type="application/rss+xml" />
    <description>${escape("Field notes on AI in sales, CRM hygiene and deal execution from the Revwise team.")}</description>
    <language>en-us</language>
${items}
  </channel>
</rss>
`;
  return new Response(xml, { headers: { "content-type": "application/rss+xml; charset=utf-8" } });
}
