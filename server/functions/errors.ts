// Errors of /functions/v1 as JSON {code, message} (plus `fields` for invalid input). supabase-js
// hands the Response to the caller (FunctionsHttpError.context), so the body is ours to define.
import type { FastifyError, FastifyReply, FastifyRequest } from "fastify";
import { classify, RETRY_AFTER_SECONDS } from "../http/fastify-errors.ts";

export class FunctionError extends Error {
  readonly status: number;
  readonly code: string;
  readonly fields: Record<string, string> | undefined;

  constructor(status: number, code: string, message: string, fields?: Record<string, string>) {
    super(message);
    this.status = status;
    this.code = code;
    this.fields = fields;
    this.name = "FunctionError";
  }
}

export function sendFunctionError(reply: FastifyReply, err: FunctionError) {
  return reply
    .code(err.status)
    .send({ code: err.code, message: err.message, ...(err.fields ? { fields: err.fields } : {}) });
}

export function functionsErrorHandler(
  err: FastifyError,
  request: FastifyRequest,
  reply: FastifyReply,
) {
  if (err instanceof FunctionError) return sendFunctionError(reply, err);
  const problem = classify(err);
  switch (problem.kind) {
    case "too_large":
      return sendFunctionError(
        reply,
        new FunctionError(413, "payload_too_large", "The request body is too large."),
      );
    case "bad_json":
      return sendFunctionError(
        reply,
        new FunctionError(400, "bad_json", "The request body is not valid JSON."),
      );
    case "media_type":
      return sendFunctionError(
        reply,
        new FunctionError(
          415,
          "unsupported_media_type",
          "Send the form as JSON (Content-Type: application/json).",
        ),
      );
    case "rate_limited":
      return sendFunctionError(
        reply,
        new FunctionError(
          429,
          "rate_limited",
          "Too many submissions from your network. Please wait a minute and try again.",
        ),
      );
    case "validation":
    case "client":
      return sendFunctionError(
        reply,
        new FunctionError(problem.status, "bad_request", problem.detail),
      );
    case "unavailable":
      request.log.warn({ err }, "function: database unavailable");
      return sendFunctionError(
        reply.header("retry-after", String(RETRY_AFTER_SECONDS)),
        new FunctionError(
          503,
          "unavailable",
          "The service is briefly unavailable. Please try again in a moment.",
        ),
      );
    case "internal":
      request.log.error({ err }, "function failed");
      return sendFunctionError(
        reply,
        new FunctionError(
          500,
          "internal_error",
          "Something went wrong on our side. Please try again.",
        ),
      );
  }
}

export function functionNotFound(_request: FastifyRequest, reply: FastifyReply) {
  return sendFunctionError(
    reply,
    new FunctionError(404, "not_found", "Requested function was not found"),
  );
}
