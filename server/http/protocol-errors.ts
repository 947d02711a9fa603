// The one error handler of every protocol (/auth/v1, /rest/v1, /functions/v1 and the root): an
// error the protocol's own code threw is sent as it is; anything else Fastify, its plugins or
// the database raised is classified once (fastify-errors.ts) and answered from the protocol's
// table, in the protocol's shape. A 503 tells the client when to retry; a 500 is logged for the
// team and its body never carries internals (each table's `internal` answer is a fixed text).
import type { FastifyError, FastifyReply, FastifyRequest } from "fastify";
import { classify, RETRY_AFTER_SECONDS, type RequestProblem } from "./fastify-errors.ts";

/**
 * An error a protocol's own code throws, already saying what to answer: its status and its code
 * (each protocol adds the rest of its shape).
 */
export class ProtocolError<Code extends string = string> extends Error {
  readonly status: number;
  readonly code: Code;
  /** When the client may try again (a 429's Retry-After), in whole seconds. */
  retryAfterSeconds: number | undefined;

  constructor(status: number, code: Code, message: string) {
    super(message);
    this.status = status;
    this.code = code;
  }

  /** The same error, telling the client to try again after `seconds` (at least one). */
  retryingAfter(seconds: number): this {
    this.retryAfterSeconds = Math.max(1, Math.ceil(seconds));
    return this;
  }
}

/** A protocol's answer to each kind of problem (a request its client abandoned gets none). */
type ProblemTable<Answer> = {
  [K in Exclude<RequestProblem["kind"], "aborted">]: (
    problem: Extract<RequestProblem, { kind: K }>,
  ) => Answer;
};

type Protocol<Answer> = {
  /** How the logs name a request of this protocol ("rest request", "function"…). */
  name: string;
  /** The protocol's own answer to an error, when it has one (its typed errors). */
  own(err: FastifyError, request: FastifyRequest): Answer | undefined;
  problems: ProblemTable<Answer>;
  send(reply: FastifyReply, answer: Answer): FastifyReply;
};

export function protocolErrorHandler<Answer>(protocol: Protocol<Answer>) {
  return function errorHandler(err: FastifyError, request: FastifyRequest, reply: FastifyReply) {
    const own = protocol.own(err, request);
    if (own !== undefined) {
      if (own instanceof ProtocolError && own.retryAfterSeconds !== undefined)
        reply.header("retry-after", String(own.retryAfterSeconds));
      return protocol.send(reply, own);
    }
    const problem = classify(err, request);
    if (problem.kind === "aborted") {
      // The connection is gone: the line tells the operator the request ended here.
      request.log.info(
        { req: request, err: err.message },
        `${protocol.name}: the client left before sending its whole request`,
      );
      return reply.code(problem.status).send();
    }
    if (problem.kind === "unavailable") {
      if (problem.closing) request.log.info(`${protocol.name}: refused while the server closes`);
      else request.log.warn({ err }, `${protocol.name}: database unavailable`);
      reply.header("retry-after", String(RETRY_AFTER_SECONDS));
    } else if (problem.kind === "internal") {
      request.log.error({ err }, `${protocol.name} failed`);
    }
    const answer = protocol.problems[problem.kind] as (p: RequestProblem) => Answer;
    return protocol.send(reply, answer(problem));
  };
}
