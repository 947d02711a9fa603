// Errors and 404s outside the API prefixes (the site, unknown methods): plain JSON
// {statusCode, error, message}, the error being the status's reason phrase; a 5xx never carries
// internals.
import type { FastifyRequest, FastifyReply } from "fastify";
import http from "node:http";
import { allowedMethods } from "./allowed-methods.ts";
import { protocolErrorHandler } from "./protocol-errors.ts";
import { pathOf } from "./request-target.ts";

type RootAnswer = { status: number; message: string };

export const rootErrorHandler = protocolErrorHandler<RootAnswer>({
  name: "request",
  own: () => undefined,
  problems: {
    too_large: () => ({ status: 413, message: "Request body too large" }),
    bad_json: (p) => ({ status: p.status, message: p.detail }),
    media_type: (p) => ({ status: p.status, message: p.detail }),
    validation: (p) => ({ status: p.status, message: p.detail }),
    rate_limited: () => ({ status: 429, message: "Too many requests" }),
    client: (p) => ({ status: p.status, message: p.detail }),
    unavailable: () => ({
      status: 503,
      message: "The service is briefly unavailable; please try again in a moment.",
    }),
    internal: () => ({ status: 500, message: "Something went wrong on our side." }),
  },
  send: (reply, { status, message }) =>
    reply.code(status).send({ statusCode: status, error: reasonPhrase(status), message }),
});

/** The status's reason phrase as Node names it ("Payload Too Large"). */
export const reasonPhrase = (status: number) => http.STATUS_CODES[status] ?? "Error";

export function rootNotFound(request: FastifyRequest, reply: FastifyReply) {
  const allow = allowedMethods(request);
  if (allow.length > 0) return methodNotAllowed(request, reply, allow);
  return reply.code(404).send({
    statusCode: 404,
    error: reasonPhrase(404),
    message: `No route for ${request.method} ${pathOf(request)}`,
  });
}

/** 405 for a method the path is not served by, naming the ones it is. */
export function methodNotAllowed(request: FastifyRequest, reply: FastifyReply, allow: string[]) {
  return reply
    .code(405)
    .header("allow", allow.join(", "))
    .send({
      statusCode: 405,
      error: reasonPhrase(405),
      message: `${request.method} is not allowed on ${pathOf(request)}`,
    });
}
