// What Fastify and Node refuse before any route runs: a URL the router cannot decode (`%ZZ`), a
// path parameter over the length limit, a request Node cannot parse (a malformed request line,
// headers too large), a request without one well-formed Host header. Each is answered as a 4xx in
// the shape of the protocol its path belongs to, with the security headers every other response
// carries.
import type { FastifyError, FastifyReply, FastifyRequest } from "fastify";
import net, { type Socket } from "node:net";
import { authErrorHandler } from "../auth/errors.ts";
import { functionsErrorHandler } from "../functions/errors.ts";
import { API_CSP, securityHeaderSet } from "../platform/security-headers.ts";
import { restErrorHandler } from "../rest/errors.ts";
import { pathOf } from "./request-target.ts";
import { reasonPhrase, rootErrorHandler } from "./root-errors.ts";

const PROTOCOLS = [
  ["/auth/v1", authErrorHandler],
  ["/rest/v1", restErrorHandler],
  ["/functions/v1", functionsErrorHandler],
] as const;

/** The headers of every answer made here: the security headers, and never kept by a cache. */
const errorHeaders = (hsts: boolean) => ({
  ...securityHeaderSet(hsts),
  "content-security-policy": API_CSP,
  "cache-control": "no-store",
});

/** Fastify's `frameworkErrors`: the router's refusals, through the normal reply. */
export function frameworkErrors(hsts: boolean) {
  const headers = errorHeaders(hsts);
  return (err: FastifyError, request: FastifyRequest, reply: FastifyReply) => {
    // These replies are made outside every route's context, so the onSend hooks do not run.
    reply.headers(headers);
    const path = pathOf(request);
    const [, handler] = PROTOCOLS.find(
      ([prefix]) => path === prefix || path.startsWith(`${prefix}/`),
    ) ?? [undefined, rootErrorHandler];
    return handler(err, request, reply);
  };
}

/** Fastify's `clientErrorHandler`: what Node could not parse, answered on the socket itself. */
export function clientErrors(hsts: boolean) {
  const headers = Object.entries(errorHeaders(hsts))
    .map(([name, value]) => `${name}: ${value}\r\n`)
    .join("");
  return function clientErrorHandler(err: NodeJS.ErrnoException, socket: Socket) {
    if (err.code === "ECONNRESET" || socket.destroyed) return;
    const status =
      err.code === "ERR_HTTP_REQUEST_TIMEOUT"
        ? 408
        : err.code === "HPE_HEADER_OVERFLOW"
          ? 431
          : 400;
    const reason = reasonPhrase(status);
    const body = JSON.stringify({ statusCode: status, error: reason, message: reason });
    if (socket.writable) {
      socket.write(
        `HTTP/1.1 ${status} ${reason}\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\n${headers}Connection: close\r\n\r\n${body}`,
      );
    }
    socket.destroy(err);
  };
}

/**
 * A host as a Host header writes it: a name (letters, digits, `-._~`, sub-delims, %-escapes) or an
 * IPv4 address, or an IPv6 address in brackets, then an optional port.
 */
const HOST = /^(?:\[([^\]]*)\]|(?:[\w\-.~!$&'()*+,;=]|%[\da-f]{2})+)(?::(\d*))?$/i;

function isWellFormedHost(value: string): boolean {
  const match = HOST.exec(value);
  if (!match) return false;
  const [, ipLiteral, port] = match;
  if (ipLiteral !== undefined && !net.isIPv6(ipLiteral)) return false;
  return port === undefined || port === "" || Number(port) <= 65535;
}

/**
 * A request names its host in exactly one well-formed Host header, which HTTP/1.1 requires (RFC
 * 9112 §3.2): a second Host line, or a value that is no host (spaces, a path, user info, an
 * unclosed IPv6 address), is refused with 400. Node's own refusal of a missing one
 * (`requireHostHeader`) is a bare 400, and Node keeps the first of several Host lines without a
 * word; this one is answered like any other error of the path's protocol.
 */
export async function requireHost(request: FastifyRequest): Promise<void> {
  const { httpVersionMajor, httpVersionMinor, rawHeaders } = request.raw;
  let lines = 0;
  for (let i = 0; i < rawHeaders.length; i += 2)
    if (rawHeaders[i]!.toLowerCase() === "host") lines++;
  const host = request.headers.host;
  if (host === undefined) {
    if (httpVersionMajor === 1 && httpVersionMinor >= 1)
      throw Object.assign(new Error("Missing Host header"), { statusCode: 400 });
  } else if (lines > 1)
    throw Object.assign(new Error("More than one Host header"), { statusCode: 400 });
  else if (!isWellFormedHost(host))
    throw Object.assign(new Error("Invalid Host header"), { statusCode: 400 });
}
