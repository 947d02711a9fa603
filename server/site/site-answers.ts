// What a site file is answered with: the content coding Accept-Encoding weighs highest among the
// file's copies, that copy's bytes and ETag, and every header it carries, or a 304 when
// If-None-Match names the tag. Each file's codings are built once, on its first request, with
// their complete header sets, so a request only picks one. Both the framework's site route
// (site-routes.ts) and the path that answers before the framework (fast-path.ts) answer from here.
import type { SiteFile } from "./site-files.ts";

/** One coding of a file as sent: its bytes and every header it carries, built once per file. */
export type Variant = {
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

/** The copy of `file` a request with this Accept-Encoding gets. */
export function variantFor(file: SiteFile, acceptEncoding: string | undefined): Variant {
  const copies = variants(file);
  const encoding = pickEncoding(acceptEncoding, file);
  return (encoding && copies[encoding]) || copies.identity!;
}

/**
 * Whether If-None-Match names the current tag, compared weakly as the header requires: `*`, or
 * any tag of its list with or without `W/`.
 */
export function namesCurrentTag(header: string | undefined, etag: string): boolean {
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
