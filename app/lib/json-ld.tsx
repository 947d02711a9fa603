// Structured data for search engines (<script type="application/ld+json">: data, never executed).
import { brand, contact } from "../content/site.ts";
import { absoluteUrl } from "./site-url.ts";

export function JsonLd({ data }: { data: Record<string, unknown> }) {
  // "<" is escaped so no value can close the script element.
  const json = JSON.stringify({ "@context": "https://schema.org", ...data }).replace(
    /</g,
    "\\u003c",
  );
  return <script type="application/ld+json" dangerouslySetInnerHTML={{ __html: json }} />;
}

export function organizationLd(): Record<string, unknown> {
  return {
    "@type": "Organization",
    name: brand.name,
    url: absoluteUrl("/"),
    logo: absoluteUrl("/favicon.svg"),
    description: brand.description,
    email: contact.email,
    telephone: contact.phone,
    address: {
      "@type": "PostalAddress",
      addressLocality: "Seattle",
      addressRegion: "WA",
      addressCountry: "US",
    },
  };
}
