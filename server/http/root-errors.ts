// Errors and 404s outside the API prefixes (the site, unknown methods): plain JSON, and a 5xx
// never carries internals.
import type { FastifyError, FastifyReply, FastifyRequest } from "fastify";
import { classify, RETRY_AFTER_SECONDS } from "./fastify-errors.ts";

export function rootErrorHandler(err: FastifyError, request: FastifyRequest, reply: FastifyReply) {
  const problem = classify(err);
  if (problem.kind === "internal") {
    request.log.error({ err }, "request failed");
    return reply.code(500).send({
      statusCode: 500,
      error: "Internal Server Error",
      message: "Something went wrong on our side.",
    });
  }
  if (problem.kind === "unavailable") {
    request.log.warn({ err }, "database unavailable");
    return reply.code(503).header("retry-after", String(RETRY_AFTER_SECONDS)).send({
      statusCode: 503,
      error: "Service Unavailable",
      message: "The service is briefly unavailable; please try again in a moment.",
    });
  }
  const message =
    "detail" in problem
      ? problem.detail
      : problem.kind === "too_large"
        ? "Request body too large"
        : "Too many requests";
  return reply
    .code(problem.status)
    .send({ statusCode: problem.status, error: "Bad Request", message });
}

export function rootNotFound(request: FastifyRequest, reply: FastifyReply) {
  return reply.code(404).send({
    statusCode: 404,
    error: "Not Found",
    message: `No route for ${request.method} ${request.url.split("?")[0]}`,
  });
}
