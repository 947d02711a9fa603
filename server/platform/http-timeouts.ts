// The HTTP server's timeouts. Node checks its request and header deadlines on a timer
// (connectionsCheckingInterval, 30 s by default) and reads them when the server is created, so
// they are given at creation with a one-second check: a body trickled a byte at a time is cut
// with 408 within a second of REQUEST_TIMEOUT_MS, not up to a minute (or more) later.
import type http from "node:http";

/** Headers are small: a client that has not sent them in this time is not going to. */
const HEADERS_TIMEOUT_MS = 10_000;
/** Longer than common load balancers' idle timeouts, so the balancer closes idle connections first. */
const KEEP_ALIVE_TIMEOUT_MS = 72_000;

export function httpTimeouts(requestTimeoutMs: number) {
  const http: http.ServerOptions = {
    requestTimeout: requestTimeoutMs,
    headersTimeout: Math.min(HEADERS_TIMEOUT_MS, requestTimeoutMs),
    keepAliveTimeout: KEEP_ALIVE_TIMEOUT_MS,
    connectionsCheckingInterval: 1000,
  };
  // Fastify sets requestTimeout and keepAliveTimeout on the server again after creating it.
  return { http, requestTimeout: requestTimeoutMs, keepAliveTimeout: KEEP_ALIVE_TIMEOUT_MS };
}
