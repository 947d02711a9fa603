// Where an email's link (or GET /verify) leads, as GoTrue's GetReferrer decides: the redirect_to
// asked for (its header, else the query), else the page the request came from (Referer), each
// only when it is allowed; else SITE_URL. Allowed in production: SITE_URL's origin only (same
// scheme, host and port). Allowed elsewhere (development, tests), as GoTrue allows without an
// allow list: our own site (same scheme and host; any port on a loopback host, RFC 8252's native
// apps), or any loopback address over http or https (a `javascript:` or other scheme naming a
// loopback host is not a page on this device). In every environment, GOTRUE_URI_ALLOW_LIST's
// patterns (GoTrue's globs) allow more: an app's own scheme, a preview site. Never credentials in it.
import type { FastifyRequest } from "fastify";
import { ipOfHost, isLoopbackAddress } from "../platform/addresses.ts";
import { queryParam } from "./request.ts";

/**
 * The site whose pages links may lead to, the environment that decides its rule, and the
 * allow list's patterns.
 */
export type RedirectSite = { siteUrl: string; env: string; uriAllowList?: string[] };

export function redirectFor(
  request: FastifyRequest,
  site: RedirectSite,
  asked: unknown = askedRedirect(request),
): string {
  for (const candidate of [asked, request.headers.referer]) {
    const allowed = allowedRedirect(candidate, site);
    if (allowed) return allowed;
  }
  return site.siteUrl;
}

/** redirect_to as a header, else as a query parameter. */
function askedRedirect(request: FastifyRequest): string | undefined {
  const header = request.headers.redirect_to;
  return typeof header === "string" && header !== "" ? header : queryParam(request, "redirect_to");
}

const hostOf = (url: URL) => ipOfHost(url.hostname) ?? url.hostname;

/** The candidate as a URL string when a link may lead there, else undefined. */
export function allowedRedirect(
  candidate: unknown,
  { siteUrl, env, uriAllowList = [] }: RedirectSite,
): string | undefined {
  if (typeof candidate !== "string" || candidate === "") return undefined;
  let target: URL;
  try {
    target = new URL(candidate);
  } catch {
    return undefined;
  }
  if (target.username || target.password) return undefined;
  const listed = candidate.split("#")[0]!;
  if (uriAllowList.some((pattern) => globMatches(pattern, listed))) return target.toString();
  const site = new URL(siteUrl);
  // A port of this machine is another program than the site: in production, not a place to go.
  if (env === "production") return target.origin === site.origin ? target.toString() : undefined;
  const host = hostOf(target);
  const loopbackIp = isLoopbackAddress(host);
  const web = target.protocol === "http:" || target.protocol === "https:";
  const ownSite =
    target.protocol === site.protocol &&
    host === hostOf(site) &&
    (target.port === site.port || loopbackIp || host === "localhost");
  return ownSite || (loopbackIp && web) ? target.toString() : undefined;
}

/**
 * GoTrue's allow-list glob (gobwas/glob with `.` and `/` as separators): `**` is any text, `*` any
 * text without a separator, `?` one character but a separator, `{a,b}` either; the rest as written.
 */
export function globMatches(pattern: string, text: string): boolean {
  let source = "";
  let braces = 0;
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i]!;
    if (c === "*" && pattern[i + 1] === "*") {
      source += ".*";
      i++;
    } else if (c === "*") source += "[^./]*";
    else if (c === "?") source += "[^./]";
    else if (c === "{" && ++braces) source += "(?:";
    else if (c === "}" && braces > 0 && braces--) source += ")";
    else if (c === "," && braces > 0) source += "|";
    else source += c.replace(/[\\^$.|+()[\]]/g, "\\$&");
  }
  return new RegExp(`^${source}$`, "s").test(text);
}

/**
 * A redirect as GoTrue's verify.go builds one: `query` parameters set on the URL's query, which is
 * then written again whole in name order, as Go's url.Values.Encode writes it (GoTrue writes the
 * query again whenever it builds one, a redirect with nothing to add included); `fragment`, when
 * given, replaces the fragment, in name order too.
 */
export function redirectWith(
  url: string,
  { query, fragment }: { query?: Record<string, string>; fragment?: Record<string, string> },
): string {
  const target = new URL(url);
  if (query) {
    for (const [k, v] of Object.entries(query)) target.searchParams.set(k, v);
    target.searchParams.sort();
  }
  if (fragment) {
    const encoded = new URLSearchParams(fragment);
    encoded.sort();
    target.hash = encoded.toString();
  }
  return target.toString();
}
