// What Fastify and Node refuse before any route runs: a URL the router cannot decode (`%ZZ`), a
// path parameter over the length limit, a request Node cannot parse (a malformed request line,
// headers too large), an HTTP/1.1 request without a Host header. Each is answered as a 4xx in
// the shape of the protocol its path belongs to, with the security headers every other response
// carries.
import type { FastifyError, FastifyReply, FastifyRequest } from "fastify";
import type { Socket } from "node:net";
import { authErrorHandler } from "../auth/errors.ts";
import { functionsErrorHandler } from "../functions/errors.ts";
import { API_CSP, securityHeaderSet } from "../platform/security-headers.ts";
import { restErrorHandler } from "../rest/errors.ts";
import { reasonPhrase, rootErrorHandler } from "./root-errors.ts";

const PROTOCOLS = [
  ["/auth/v1", authErrorHandler],
  ["/rest/v1", restErrorHandler],
  ["/functions/v1", functionsErrorHandler],
] as const;

/** Fastify's `frameworkErrors`: the router's refusals, through the normal reply. */
export function frameworkErrors(hsts: boolean) {
  const headers = { ...securityHeaderSet(hsts), "content-security-policy": API_CSP };
  return (err: FastifyError, request: FastifyRequest, reply: FastifyReply) => {
    // These replies are made outside every route's context, so the onSend hooks do not run.
    reply.headers(headers);
    const url = request.raw.url ?? "/";
    const [, handler] = PROTOCOLS.find(
      ([prefix]) => url === prefix || url.startsWith(`${prefix}/`) || url.startsWith(`${prefix}?`),
    ) ?? [undefined, rootErrorHandler];
    return handler(err, request, reply);
  };
}

/** Fastify's `clientErrorHandler`: what Node could not parse, answered on the socket itself. */
export function clientErrors(hsts: boolean) {
  const headers = Object.entries({
    ...securityHeaderSet(hsts),
    "content-security-policy": API_CSP,
    "cache-control": "no-store",
  })
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
 * An HTTP/1.1 request must name its host (RFC 9112 §3.2). Node's own refusal (`requireHostHeader`)
 * is a bare 400; this one is answered like any other error of the path's protocol.
 */
export async function requireHost(request: FastifyRequest): Promise<void> {
  const { httpVersionMajor, httpVersionMinor } = request.raw;
  if (httpVersionMajor === 1 && httpVersionMinor >= 1 && request.headers.host === undefined)
    throw Object.assign(new Error("Missing Host header"), { statusCode: 400 });
}
