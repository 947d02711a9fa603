// Serves the built site from memory: prerendered pages (no-cache, revalidated by ETag), hashed
// assets (immutable), the 404 pages with status 404, the permanent redirects, and the answer to a
// form posted without JavaScript.
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { FORM_FALLBACK_ACTION, JAVASCRIPT_REQUIRED_ROUTE } from "../../common/site-build.ts";
import { splitTarget } from "../http/request-target.ts";
import { methodNotAllowed } from "../http/root-errors.ts";
import type { ViewRequest } from "../analytics/page-views.ts";
import { SITE_ROUTE } from "./fast-path.ts";
import { namesCurrentTag, variantFor } from "./site-answers.ts";
import type { Site, SiteFile } from "./site-files.ts";

type SiteOptions = {
  site: Site;
  /** Told of each page served to a GET (page analytics). */
  onPage?: (request: ViewRequest, pathname: string) => void;
};

export default async function siteRoutes(app: FastifyInstance, { site, onPage }: SiteOptions) {
  // The site's files carry their compressed copies, each with an ETag of its own (send()): the
  // global on-the-fly compression stays off here, or it would compress a body sent as identity
  // (to an Accept-Encoding this negotiation answers so) under the identity tag. HEAD is served by
  // the same handler rather than the one Fastify derives from GET, which gives a 304 without a
  // body a Content-Length of 0 (a 304 carries none, or the length of the 200's content).
  app.route({ method: ["GET", "HEAD"], url: SITE_ROUTE, compress: false, handler: siteFile });

  async function siteFile(request: FastifyRequest, reply: FastifyReply) {
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
  }

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

function send(request: FastifyRequest, reply: FastifyReply, file: SiteFile) {
  const variant = variantFor(file, request.headers["accept-encoding"]);
  if (reply.statusCode === 200 && namesCurrentTag(request.headers["if-none-match"], variant.etag))
    return reply.headers(variant.notModified).code(304).send();
  return reply.headers(variant.headers).send(variant.body);
}
