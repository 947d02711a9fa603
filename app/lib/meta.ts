// Per-page <head>: title, description, canonical URL, Open Graph and Twitter cards.
import type { MetaDescriptor } from "react-router";
import { brand } from "../content/site.ts";
import type { PageInfo } from "../content/pages.ts";
import { absoluteUrl } from "./site-url.ts";

const DEFAULT_SOCIAL_IMAGE = "/og-image.png";

type MetaOptions = {
  image?: string;
  imageAlt?: string;
  type?: "website" | "article";
  publishedTime?: string;
};

export function pageMeta(page: PageInfo, opts: MetaOptions = {}): MetaDescriptor[] {
  const url = absoluteUrl(page.path);
  const image = absoluteUrl(opts.image ?? DEFAULT_SOCIAL_IMAGE);
  const imageAlt = opts.imageAlt ?? `${brand.name}: ${brand.tagline}`;
  return [
    { title: page.title },
    { name: "description", content: page.description },
    { tagName: "link", rel: "canonical", href: url },
    ...(page.noindex ? [{ name: "robots", content: "noindex" }] : []),
    { property: "og:site_name", content: brand.name },
    { property: "og:type", content: opts.type ?? "website" },
    { property: "og:title", content: page.title },
    { property: "og:description", content: page.description },
    { property: "og:url", content: url },
    { property: "og:image", content: image },
    { property: "og:image:alt", content: imageAlt },
    ...(opts.publishedTime
      ? [{ property: "article:published_time", content: opts.publishedTime }]
      : []),
    { name: "twitter:card", content: "summary_large_image" },
    { name: "twitter:title", content: page.title },
    { name: "twitter:description", content: page.description },
    { name: "twitter:image", content: image },
    { name: "twitter:image:alt", content: imageAlt },
  ];
}
