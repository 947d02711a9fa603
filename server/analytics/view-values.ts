// What a page view is counted under, made from what the browser sends: the referring site's host,
// the campaign's name and the browser's kind. Each has few possible values for one visitor, so
// fresh Referer, utm_campaign or User-Agent texts cannot each make rows of their own; the number
// of referring sites and campaigns a day keeps is bounded where they are written (page-views.ts).
import { splitTarget } from "../http/request-target.ts";

/** Longest campaign name kept (longer ones are cut). */
export const CAMPAIGN_LENGTH = 64;

/** The value a referring site or campaign is counted under once its day holds as many as it may. */
export const OTHER = "(other)";

/**
 * The referring site's host name, lower case and without "www."; "" for none, this site, or
 * something that is not a URL with a host. The path, query and port are never kept.
 */
export function referringSite(referer: string | undefined, siteHost: string): string {
  if (!referer) return "";
  let host: string;
  try {
    host = new URL(referer).hostname
      .toLowerCase()
      .replace(/^www\./, "")
      .replace(/\.$/, "");
  } catch {
    return "";
  }
  return host === siteHost || host.length > 253 ? "" : host;
}

/** The host name a site's own links are recognised by (as referringSite writes one). */
export function siteHostOf(siteUrl: string): string {
  return new URL(siteUrl).hostname.toLowerCase().replace(/^www\./, "");
}

/**
 * A UTM parameter of the page's address ("" without one): lower case, runs of anything but
 * letters, digits, "." and "_" turned into one "-", at most CAMPAIGN_LENGTH characters.
 */
function utmOf(query: URLSearchParams, name: string): string {
  return (query.get(name) ?? "")
    .toLowerCase()
    .replace(/[^a-z0-9._]+/g, "-")
    .slice(0, CAMPAIGN_LENGTH)
    .replace(/^-+|-+$/g, "");
}

const utmParams = (url: string) => new URLSearchParams(splitTarget(url).query);

/** The UTM campaign of the page's address ("" without one), as utmOf keeps it. */
export function campaignOf(url: string): string {
  return utmOf(utmParams(url), "utm_campaign");
}

/** The UTM source, medium and campaign of the page's address, each as utmOf keeps it. */
export function utmTagsOf(url: string): { source: string; medium: string; campaign: string } {
  const query = utmParams(url);
  return {
    source: utmOf(query, "utm_source"),
    medium: utmOf(query, "utm_medium"),
    campaign: utmOf(query, "utm_campaign"),
  };
}

/** Browser families by their user-agent tokens, most specific first (Edge also says Chrome). */
const BROWSERS: [string, RegExp][] = [
  ["edge", /\bEdg(e|A|iOS)?\//],
  ["opera", /\bOPR\/|\bOpera\b/],
  ["samsung", /\bSamsungBrowser\//],
  ["firefox", /\bFirefox\/|\bFxiOS\//],
  ["chrome", /\bChrome\/|\bCriOS\//],
  ["safari", /\bSafari\//],
];

/** Systems by their user-agent tokens (Android also says Linux, iOS also says Mac OS X). */
const SYSTEMS: [string, RegExp][] = [
  ["android", /\bAndroid\b/],
  ["ios", /\b(iPhone|iPad|iPod)\b/],
  ["windows", /\bWindows\b/],
  ["macos", /\bMac OS X\b|\bMacintosh\b/],
  ["chromeos", /\bCrOS\b/],
  ["linux", /\bLinux\b|\bX11\b/],
];

/**
 * The kind of browser a user agent names, as "family/system" ("chrome/windows"): one of 7 × 7
 * values whatever the text, so a visitor who changes the text stays one visitor.
 */
export function browserClass(agent: string): string {
  const family = BROWSERS.find(([, token]) => token.test(agent))?.[0] ?? "other";
  const system = SYSTEMS.find(([, token]) => token.test(agent))?.[0] ?? "other";
  return `${family}/${system}`;
}
