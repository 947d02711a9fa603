// PostgREST's wire shape {code, details, hint, message} for everything under /rest/v1, and the
// gateway's shape for missing or bad API keys (on Supabase the gateway checks `apikey`).
import type { FastifyReply, FastifyRequest } from "fastify";
import { isDatabaseError, isDatabaseUnavailable, type DatabaseError } from "../db/database.ts";
import { ProtocolError, protocolErrorHandler } from "../http/protocol-errors.ts";
import { pathOf } from "../http/request-target.ts";
import type { TokenRefusal } from "../security/tokens.ts";
import { FUNCTION_METHODS, TABLE_METHODS, relationMethods } from "./methods.ts";

export class PostgrestError extends ProtocolError {
  readonly details: string | null;
  readonly hint: string | null;

  constructor(
    status: number,
    code: string,
    message: string,
    details: string | null = null,
    hint: string | null = null,
  ) {
    super(status, code, message);
    this.details = details;
    this.hint = hint;
    this.name = "PostgrestError";
  }
}

/** The gateway's 401s (Kong's key-auth), sent before PostgREST is reached. */
export class GatewayError extends Error {
  readonly hint: string;

  constructor(message: string, hint: string) {
    super(message);
    this.hint = hint;
  }
}

/**
 * A refused bearer token in PostgREST's words (Error.hs, JwtError): what cannot be decoded is
 * PGRST301 (not three parts, "Expected 3 parts in JWT; got N"; no key of ours, "No suitable key or
 * wrong key type"), a claim refused is PGRST303 ("JWT expired", "JWT not yet valid"; an issuer
 * other than ours, which PostgREST does not check, in the same shape).
 */
export function tokenRefusal(reason: TokenRefusal, token: string): PostgrestError {
  switch (reason) {
    case "malformed":
      return new PostgrestError(
        401,
        "PGRST301",
        `Expected 3 parts in JWT; got ${token.split(".").length}`,
      );
    case "expired":
      return new PostgrestError(401, "PGRST303", "JWT expired");
    case "not_yet_valid":
      return new PostgrestError(401, "PGRST303", "JWT not yet valid");
    case "issuer":
      return new PostgrestError(401, "PGRST303", "JWT issuer not accepted");
    default:
      return new PostgrestError(401, "PGRST301", "No suitable key or wrong key type");
  }
}

function sendPostgrestError(reply: FastifyReply, err: PostgrestError) {
  // A bad or expired token is named invalid (RFC 6750); a good key without the privilege is not.
  if (err.status === 401)
    reply.header(
      "www-authenticate",
      err.code.startsWith("PGRST3")
        ? `Bearer error="invalid_token", error_description=${JSON.stringify(err.message)}`
        : "Bearer",
    );
  return reply
    .code(err.status)
    .type("application/json; charset=utf-8")
    .send({ code: err.code, details: err.details, hint: err.hint, message: err.message });
}

/**
 * The HTTP status of a SQLSTATE, as PostgREST maps it (Error.hs mapSQLtoHTTP): the server's own
 * failures are 5xx, and anything else the database refuses is the request's mistake, a 400. One
 * difference: a program limit (class 54: too many columns, too complex a statement) is a 400,
 * where PostgREST says 500, since every statement here is shaped by the request that meets it
 * (read-query.ts refuses the sizes it knows of first).
 */
function statusOfSqlState(code: string, message: string, anon: boolean): number {
  switch (code) {
    case "23503":
    case "23505":
      return 409;
    case "25006":
      return 405;
    case "21000":
      return message.endsWith("requires a WHERE clause") ? 400 : 500;
    case "42501":
      return anon ? 401 : 403;
    case "42P01":
    case "42883":
      return 404;
    case "42P17":
    case "53400":
      return 500;
    case "57P01":
      return 503;
    case "P0001":
      return 400;
  }
  if (/^(08|53)/.test(code)) return 503;
  if (/^(0L|0P|28)/.test(code)) return 403;
  if (/^(09|25|2D|38|39|3B|40|55|57|58|F0|HV|P0|XX)/.test(code)) return 500;
  return 400;
}

/** A database's refusal in PostgREST's shape; a 5xx says no more than that it failed. */
export function fromDatabaseError(err: DatabaseError, anon: boolean): PostgrestError {
  const status = statusOfSqlState(err.code, err.message, anon);
  if (status >= 500) return new PostgrestError(status, err.code, "Internal server error");
  return new PostgrestError(status, err.code, err.message, err.detail ?? null, null);
}

/** PostgREST's answers to what the server refuses before a route runs, and to its failures. */
export const restErrorHandler = protocolErrorHandler<PostgrestError | GatewayError>({
  name: "rest request",
  own(err, request) {
    if (err instanceof PostgrestError || err instanceof GatewayError) return err;
    if (isDatabaseError(err) && !isDatabaseUnavailable(err)) {
      const mapped = fromDatabaseError(err, true);
      if (mapped.status >= 500) request.log.error({ err }, "rest request failed");
      return mapped;
    }
    return undefined;
  },
  problems: {
    too_large: () => new PostgrestError(413, "PGRST102", "Request body too large"),
    bad_json: () => new PostgrestError(400, "PGRST102", "Empty or invalid json"),
    media_type: () => new PostgrestError(415, "PGRST107", "Content-Type not acceptable"),
    rate_limited: () =>
      new PostgrestError(
        429,
        "over_request_rate_limit",
        "Too many requests",
        null,
        "Wait a minute before trying again.",
      ),
    validation: (p) => new PostgrestError(p.status, "PGRST100", p.detail),
    client: (p) => new PostgrestError(p.status, "PGRST100", p.detail),
    // PostgREST's answer while it cannot reach the database; while the server closes, the same
    // code (the client's retry is the same) with what is happening.
    unavailable: (p) =>
      new PostgrestError(
        503,
        "PGRST000",
        p.closing
          ? "The server is closing. Retry the request."
          : "Database connection error. Retrying the connection.",
      ),
    internal: () => new PostgrestError(500, "PGRST000", "Internal server error"),
  },
  send: (reply, err) =>
    err instanceof GatewayError
      ? reply.code(401).send({ message: err.message, hint: err.hint })
      : sendPostgrestError(reply, err),
});

const PREFIX = "/rest/v1/";
/** The methods PostgREST takes an action for, on a function and on a relation. */
const RPC_ACTIONS = new Set(["GET", "HEAD", "POST", "OPTIONS"]);
const RELATION_ACTIONS = new Set([...RPC_ACTIONS, "PUT", "PATCH", "DELETE"]);

/**
 * What PostgREST answers where it has no action (ApiRequest.hs getResource, getAction): a method
 * it takes no action for on a function is PGRST101, on a relation PGRST117, each naming the
 * methods that are taken (RFC 9110 requires Allow on a 405, where PostgREST sends none). Any
 * other path no route serves (another shape than `/{relation}` or `/rpc/{function}`, or a name
 * over the router's length limit) is not found.
 */
export function restNotFound(request: FastifyRequest, reply: FastifyReply) {
  const path = pathOf(request);
  const segments = path.startsWith(PREFIX) ? path.slice(PREFIX.length).split("/") : [];
  const [first, second] = segments;
  if (segments.length === 2 && first === "rpc" && second && !RPC_ACTIONS.has(request.method)) {
    reply.header("allow", FUNCTION_METHODS);
    return sendPostgrestError(
      reply,
      new PostgrestError(405, "PGRST101", `Cannot use the ${request.method} method on RPC`),
    );
  }
  if (segments.length === 1 && first && !RELATION_ACTIONS.has(request.method)) {
    // A name that is no relation: PostgREST refuses the method before it looks the name up.
    reply.header("allow", relationMethods(first) ?? TABLE_METHODS);
    return sendPostgrestError(
      reply,
      new PostgrestError(405, "PGRST117", `Unsupported HTTP method: ${request.method}`),
    );
  }
  return sendPostgrestError(
    reply,
    new PostgrestError(404, "PGRST125", `Invalid path specified in request URL: ${path}`),
  );
}
