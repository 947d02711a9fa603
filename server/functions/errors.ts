// Errors of /functions/v1 as JSON {code, message} (plus `fields` for invalid input). supabase-js
// hands the Response to the caller (FunctionsHttpError.context), so the body is ours to define.
import type { FastifyReply, FastifyRequest } from "fastify";
import { allowedMethods } from "../http/allowed-methods.ts";
import { ProtocolError, protocolErrorHandler } from "../http/protocol-errors.ts";

export class FunctionError extends ProtocolError {
  readonly fields: Record<string, string> | undefined;

  constructor(status: number, code: string, message: string, fields?: Record<string, string>) {
    super(status, code, message);
    this.fields = fields;
    this.name = "FunctionError";
  }
}

function sendFunctionError(reply: FastifyReply, err: FunctionError) {
  return reply
    .code(err.status)
    .send({ code: err.code, message: err.message, ...(err.fields ? { fields: err.fields } : {}) });
}

/** The functions' answers to what the server refuses before a function runs, and to failures. */
export const functionsErrorHandler = protocolErrorHandler<FunctionError>({
  name: "function",
  own: (err) => (err instanceof FunctionError ? err : undefined),
  problems: {
    too_large: () => new FunctionError(413, "payload_too_large", "The request body is too large."),
    bad_json: () => new FunctionError(400, "bad_json", "The request body is not valid JSON."),
    media_type: () =>
      new FunctionError(
        415,
        "unsupported_media_type",
        "Send the form as JSON (Content-Type: application/json).",
      ),
    rate_limited: () =>
      new FunctionError(
        429,
        "rate_limited",
        "Too many submissions from your network. Please wait a minute and try again.",
      ),
    validation: (p) => new FunctionError(p.status, "bad_request", p.detail),
    client: (p) => new FunctionError(p.status, "bad_request", p.detail),
    unavailable: () =>
      new FunctionError(
        503,
        "unavailable",
        "The service is briefly unavailable. Please try again in a moment.",
      ),
    internal: () =>
      new FunctionError(
        500,
        "internal_error",
        "Something went wrong on our side. Please try again.",
      ),
  },
  send: sendFunctionError,
});

export function functionNotFound(request: FastifyRequest, reply: FastifyReply) {
  const allow = allowedMethods(request);
  if (allow.length > 0) {
    reply.header("allow", allow.join(", "));
    return sendFunctionError(
      reply,
      new FunctionError(405, "method_not_allowed", "Method not allowed"),
    );
  }
  return sendFunctionError(
    reply,
    new FunctionError(404, "not_found", "Requested function was not found"),
  );
}
