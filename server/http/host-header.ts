// Whether a request names its host as HTTP/1.1 requires (RFC 9112 §3.2): in exactly one Host
// header whose value is a host. One home for the rule, for the framework's hook that refuses a
// request breaking it (framework-errors.ts) and for the path that answers site files before the
// framework (site/fast-path.ts), which leaves such a request to that hook.
import type { IncomingMessage } from "node:http";
import net from "node:net";

/**
 * A host as a Host header writes it: a name (letters, digits, `-._~`, sub-delims, %-escapes) or an
 * IPv4 address, or an IPv6 address in brackets, then an optional port.
 */
const HOST = /^(?:\[([^\]]*)\]|(?:[\w\-.~!$&'()*+,;=]|%[\da-f]{2})+)(?::(\d*))?$/i;

/** Well-formed values seen: a site is asked for under a few names, so each is checked once. */
const wellFormed = new Set<string>();
const WELL_FORMED_KEPT = 64;

function isWellFormedHost(value: string): boolean {
  if (wellFormed.has(value)) return true;
  if (!checkHost(value)) return false;
  if (wellFormed.size >= WELL_FORMED_KEPT) wellFormed.clear();
  wellFormed.add(value);
  return true;
}

function checkHost(value: string): boolean {
  const match = HOST.exec(value);
  if (!match) return false;
  const [, ipLiteral, port] = match;
  if (ipLiteral !== undefined && !net.isIPv6(ipLiteral)) return false;
  return port === undefined || port === "" || Number(port) <= 65535;
}

/**
 * What is wrong with the request's Host header, or undefined when nothing is: missing from an
 * HTTP/1.1 request, sent twice, or a value that is no host (spaces, a path, user info, an unclosed
 * IPv6 address).
 */
export function hostProblem(request: IncomingMessage): string | undefined {
  const { httpVersionMajor, httpVersionMinor, rawHeaders } = request;
  const host = request.headers.host;
  if (host === undefined)
    return httpVersionMajor === 1 && httpVersionMinor >= 1 ? "Missing Host header" : undefined;
  let lines = 0;
  for (let i = 0; i < rawHeaders.length; i += 2)
    if (rawHeaders[i]!.length === 4 && rawHeaders[i]!.toLowerCase() === "host") lines++;
  if (lines > 1) return "More than one Host header";
  if (!isWellFormedHost(host)) return "Invalid Host header";
  return undefined;
}
