// Serves the built site from memory: prerendered pages (no-cache, revalidated by ETag), hashed
// assets (immutable), the 404 pages with status 404, the permanent redirects, and the answer to a
// form posted without JavaScript.
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { FORM_FALLBACK_ACTION, JAVASCRIPT_REQUIRED_ROUTE } from "../../common/site-build.ts";
import { splitTarget } from "../http/request-target.ts";
import { methodNotAllowed } from "../http/root-errors.ts";
import type { Site, SiteFile } from "./site-files.ts";

type SiteOptions = {
  site: Site;
  /** Told of each page served to a GET (page analytics). */
  onPage?: (request: FastifyRequest, pathname: string) => void;
};

export default async function siteRoutes(app: FastifyInstance, { site, onPage }: SiteOptions) {
  // The site's files carry their compressed copies, each with an ETag of its own (send()): the
  // global on-the-fly compression stays off here, or it would compress a body sent as identity
  // (to an Accept-Encoding this negotiation answers so) under the identity tag.
  app.get("/*", { compress: false }, async (request, reply) => {
    const { pathname, search } = splitUrl(request.url);

    const pageFile = site.pages.get(pathname);
    if (pageFile) {
      if (request.method === "GET") onPage?.(request, pathname);
      return send(request, reply, pageFile);
    }

    const file = site.files.get(pathname);
    if (file) return send(request, reply, file);

    const target = redirectTarget(pathname, site);
    if (target) return reply.redirect(encodeTarget(target + search), 301);

    reply.code(404);
    if (!looksLikePage(pathname)) return reply.type("text/plain; charset=utf-8").send("Not found");
    return send(request, reply, pathname.startsWith("/blog/") ? site.blogNotFound : site.notFound);
  });

  // A form submitted without its script (the forms' fallback action, or a page's own URL from an
  // older copy of the page): see other, the page that says the form needs JavaScript. The fields
  // are never read, logged or echoed (a password may be among them); only the size limit applies.
  app.addContentTypeParser("*", { parseAs: "buffer" }, (_request, _body, done) =>
    done(null, undefined),
  );
  app.post("/*", async (request, reply) => {
    const { pathname } = splitUrl(request.url);
    if (pathname !== FORM_FALLBACK_ACTION && !site.pages.has(pathname))
      return refuseMethod(request, reply);
    reply.header("cache-control", "no-store");
    return reply.redirect(JAVASCRIPT_REQUIRED_ROUTE, 303);
  });

  app.route({
    method: app.supportedMethods.filter((m) => !["GET", "HEAD", "POST"].includes(m)),
    url: "/*",
    handler: refuseMethod,
  });

  /** A method a page or file is not served by: 405 naming those it is; elsewhere the 404. */
  function refuseMethod(request: FastifyRequest, reply: FastifyReply) {
    const { pathname } = splitUrl(request.url);
    if (site.pages.has(pathname)) return methodNotAllowed(request, reply, ["GET", "HEAD", "POST"]);
    if (site.files.has(pathname)) return methodNotAllowed(request, reply, ["GET", "HEAD"]);
    return reply.callNotFound();
  }
}

/** Old blog links (/resources/blog/x) and trailing slashes (/faq/) move permanently, in one move. */
function redirectTarget(pathname: string, site: Site): string | undefined {
  if (pathname === "/resources/blog" || pathname.startsWith("/resources/blog/")) {
    const moved = pathname.replace(/^\/resources\/blog/, "/blog");
    return redirectTarget(moved, site) ?? moved;
  }
  if (pathname.length > 1 && pathname.endsWith("/")) {
    const bare = pathname.replace(/\/+$/, "") || "/";
    if (site.pages.has(bare)) return bare;
  }
  return undefined;
}

/**
 * A decoded path and query as a Location header carries them: percent-encoded UTF-8 (no raw
 * non-ASCII, control or space characters), with the escapes decoding left in place (%2F) kept.
 */
function encodeTarget(target: string): string {
  return encodeURI(target).replace(/%25([0-9A-Fa-f]{2})/g, "%$1");
}

/** Paths with a file extension (other than .html) are assets: their 404 is not a page. */
function looksLikePage(pathname: string): boolean {
  const last = pathname.slice(pathname.lastIndexOf("/") + 1);
  return !last.includes(".") || last.endsWith(".html");
}

function splitUrl(url: string): { pathname: string; search: string } {
  const { path: raw, query } = splitTarget(url);
  let pathname = raw;
  try {
    pathname = decodeURI(raw);
  } catch {
    // A malformed escape cannot name a file; leave it as sent, it will 404.
  }
  return { pathname, search: query === undefined ? "" : `?${query}` };
}

/** One coding of a file as sent: its bytes and every header it carries, built once per file. */
type Variant = {
  body: Buffer;
  etag: string;
  headers: Record<string, string>;
  /** A 304's: the same but the content coding (it has no body). */
  notModified: Record<string, string>;
};
type Variants = Record<"identity" | "br" | "gzip", Variant | undefined>;
const variantsOf = new WeakMap<SiteFile, Variants>();

function variants(file: SiteFile): Variants {
  let known = variantsOf.get(file);
  if (known) return known;
  const variant = (encoding: "br" | "gzip" | undefined): Variant => {
    // Each content coding is a representation of its own, with a tag of its own.
    const etag = encoding ? `${file.etag.slice(0, -1)}-${encoding}"` : file.etag;
    const headers: Record<string, string> = {
      "content-type": file.type,
      "cache-control": file.cacheControl,
      etag,
    };
    if (file.csp) headers["content-security-policy"] = file.csp;
    if (file.br || file.gzip) headers.vary = "accept-encoding";
    const notModified = { ...headers };
    if (encoding) headers["content-encoding"] = encoding;
    return { body: encoding ? file[encoding]! : file.body, etag, headers, notModified };
  };
  known = {
    identity: variant(undefined),
    br: file.br ? variant("br") : undefined,
    gzip: file.gzip ? variant("gzip") : undefined,
  };
  variantsOf.set(file, known);
  return known;
}

function send(request: FastifyRequest, reply: FastifyReply, file: SiteFile) {
  const copies = variants(file);
  const encoding = pickEncoding(request.headers["accept-encoding"], file);
  const variant = (encoding && copies[encoding]) || copies.identity!;
  if (reply.statusCode === 200 && namesCurrentTag(request.headers["if-none-match"], variant.etag))
    return reply.headers(variant.notModified).code(304).send();
  return reply.headers(variant.headers).send(variant.body);
}

/**
 * Whether If-None-Match names the current tag, compared weakly as the header requires: `*`, or
 * any tag of its list with or without `W/`.
 */
function namesCurrentTag(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  if (header === etag) return true;
  if (header.trim() === "*") return true;
  return header.split(",").some((tag) => tag.trim().replace(/^W\//, "") === etag);
}

/** What an Accept-Encoding header weighs each coding we have copies in, parsed once per value. */
type Weights = { br: number; gzip: number };
const weightsOf = new Map<string, Weights>();
/** Browsers send a handful of distinct values; a client sending many only refills the cache. */
const WEIGHTS_KEPT = 256;

/**
 * The content coding to send (RFC 9110 §12.5.3): of the copies the file has, the one
 * Accept-Encoding weighs highest (brotli on a tie), `*` weighing every coding the header does not
 * name and `x-gzip` being gzip; none (identity) without the header or when it accepts neither.
 */
function pickEncoding(header: string | undefined, file: SiteFile): "br" | "gzip" | undefined {
  if (!header) return undefined;
  let weights = weightsOf.get(header);
  if (!weights) {
    weights = parseWeights(header);
    if (weightsOf.size >= WEIGHTS_KEPT) weightsOf.clear();
    weightsOf.set(header, weights);
  }
  let chosen: "br" | "gzip" | undefined;
  let best = 0;
  for (const coding of ["br", "gzip"] as const) {
    if (file[coding] && weights[coding] > best) [chosen, best] = [coding, weights[coding]];
  }
  return chosen;
}

function parseWeights(header: string): Weights {
  const named = new Map<string, number>();
  for (const part of header.split(",")) {
    const [token = "", ...params] = part.toLowerCase().split(";");
    const q = params.map((p) => p.trim()).find((p) => p.startsWith("q="));
    const name = token.trim() === "x-gzip" ? "gzip" : token.trim();
    named.set(name, q ? Number(q.slice(2)) : 1);
  }
  const weight = (coding: string) => named.get(coding) ?? named.get("*") ?? 0;
  return { br: weight("br"), gzip: weight("gzip") };
}
