import { SITE_URL_PLACEHOLDER } from "../../common/site-build.ts";

/** The site's public origin: the server fills in the prerendered placeholder; the browser knows its own. */
function siteOrigin(): string {
  return typeof window === "undefined" ? SITE_URL_PLACEHOLDER : window.location.origin;
}

export function absoluteUrl(path: string): string {
  return new URL(path, `${siteOrigin()}/`).toString();
}
