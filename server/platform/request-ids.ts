// Every request's id: the X-Request-Id a trusted balancer sent (TRUST_PROXY, judged on the
// socket's peer exactly as the client's address is), else one made here. The answer carries it
// in X-Request-Id, and every log line of the request carries it (Fastify's `reqId`), so one
// request is followed from the balancer's log through each instance's. A client's own header is
// not believed: it could give many requests one id, or an id that mimics another request's.
import compileTrust from "@fastify/proxy-addr";
import type { FastifyReply, FastifyRequest } from "fastify";
import { randomUUID } from "node:crypto";
import type { IncomingMessage } from "node:http";

const HEADER = "x-request-id";

/** What an id taken from a balancer may be: printable ASCII without spaces, 1 to 128 characters. */
const USABLE_ID = /^[\x21-\x7e]{1,128}$/;

/** Fastify's genReqId for the proxies of TRUST_PROXY (false: none trusted, every id made here). */
export function requestIds(trustProxy: false | string[]): (raw: IncomingMessage) => string {
  const trusted = trustProxy === false ? undefined : compileTrust.compile(trustProxy);
  if (!trusted) return () => randomUUID();
  return (raw) => {
    const given = raw.headers[HEADER];
    const peer = raw.socket.remoteAddress;
    if (
      typeof given === "string" &&
      peer !== undefined &&
      USABLE_ID.test(given) &&
      trusted(peer, 0)
    )
      return given;
    return randomUUID();
  };
}

/** An onRequest hook: the answer names the request's id, whatever answers it. */
export function answerWithRequestId(
  request: FastifyRequest,
  reply: FastifyReply,
  done: () => void,
) {
  reply.header(HEADER, request.id);
  done();
}
