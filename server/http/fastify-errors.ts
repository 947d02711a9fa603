// Classifies the errors Fastify and its plugins raise before a handler runs, so that each
// protocol can answer them in its own shape instead of Fastify's {statusCode, code: "FST_…"}.
import type { FastifyError, FastifyRequest } from "fastify";
import { isDatabaseUnavailable } from "../db/database.ts";

/** What a 503 tells the client to wait before trying again (Retry-After, seconds). */
export const RETRY_AFTER_SECONDS = 1;

/**
 * A request that arrived while the server closes (pipelined, or on a keep-alive connection the
 * drain did not end): refused with 503 in its protocol's shape (refuseWhileClosing), where
 * Fastify's own `return503OnClosing` answers in its own shape without the security headers.
 */
export class ServerClosing extends Error {
  readonly statusCode = 503;

  constructor() {
    super("The server is closing");
  }
}

export type RequestProblem =
  | { kind: "aborted"; status: 400 }
  | { kind: "too_large"; status: 413 }
  | { kind: "bad_json"; status: 400; detail: string }
  | { kind: "media_type"; status: 415; detail: string }
  | { kind: "validation"; status: 400; detail: string }
  | { kind: "rate_limited"; status: 429 }
  | { kind: "client"; status: number; detail: string }
  | { kind: "unavailable"; status: 503; closing?: true }
  | { kind: "internal"; status: 500 };

export function classify(err: FastifyError, request: FastifyRequest): RequestProblem {
  // The request's own stream failed: the client closed or reset the connection while sending its
  // body (Node's "aborted", ECONNRESET). Nobody is left to answer, and the database is not at fault.
  if (err === request.raw.errored) return { kind: "aborted", status: 400 };
  if (isDatabaseUnavailable(err)) return { kind: "unavailable", status: 503 };
  if (err instanceof ServerClosing) return { kind: "unavailable", status: 503, closing: true };
  const status = err.statusCode ?? 500;
  switch (err.code) {
    case "FST_ERR_CTP_BODY_TOO_LARGE":
      return { kind: "too_large", status: 413 };
    case "FST_ERR_CTP_INVALID_JSON_BODY":
    case "FST_ERR_CTP_EMPTY_JSON_BODY":
      return { kind: "bad_json", status: 400, detail: err.message };
    case "FST_ERR_CTP_INVALID_MEDIA_TYPE":
    case "FST_ERR_CTP_INVALID_CONTENT_LENGTH":
      return { kind: "media_type", status: 415, detail: "Unsupported content type" };
  }
  if (err.validation) return { kind: "validation", status: 400, detail: err.message };
  if (status === 429) return { kind: "rate_limited", status: 429 };
  // The JSON parser reports syntax errors (and prototype poisoning) as plain 400s.
  if (
    err instanceof SyntaxError ||
    (status === 400 && /JSON|prototype|constructor/i.test(err.message))
  )
    return { kind: "bad_json", status: 400, detail: "Could not parse request body as JSON" };
  if (status >= 400 && status < 500) return { kind: "client", status, detail: err.message };
  return { kind: "internal", status: 500 };
}
