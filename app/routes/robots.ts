// /robots.txt: everything may be crawled; names the sitemap.
import { absoluteUrl } from "../lib/site-url.ts";

export function loader() {
  const body = [
    "User-agent: *",
    "Allow: /",
    "",
    `Sitemap: ${absoluteUrl("/sitemap.xml")}`,
    "",
  ].join("\n");
  return new Response(body, { headers: { "content-type": "text/plain; charset=utf-8" } });
}
