// What Fastify and Node refuse before any route runs: a URL the router cannot decode (`%ZZ`), a
// path parameter over the length limit, a request Node cannot parse or wait for (a malformed
// request line or chunked body, headers too large, a request too slow), a request without one
// well-formed Host header, a request that arrives while the server closes (503). Each is answered
// in the shape of the protocol its path belongs to, with the security headers every other
// response carries; one written on the socket itself goes after the answers the connection
// owes the requests before it (connection-answers.ts).
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { ServerResponse, type IncomingMessage } from "node:http";
import type { Socket } from "node:net";
import { authErrorHandler } from "./auth/errors.ts";
import { functionsErrorHandler } from "./functions/errors.ts";
import { API_CSP, securityHeaderSet } from "./platform/security-headers.ts";
import { restErrorHandler } from "./rest/errors.ts";
import { afterOwedAnswers, requestInProgress } from "./http/connection-answers.ts";
import { hostProblem } from "./http/host-header.ts";
import { ServerClosing } from "./http/fastify-errors.ts";
import { pathOf, splitTarget } from "./http/request-target.ts";
import { reasonPhrase, rootErrorHandler } from "./http/root-errors.ts";

const PROTOCOLS = [
  ["/auth/v1", authErrorHandler],
  ["/rest/v1", restErrorHandler],
  ["/functions/v1", functionsErrorHandler],
] as const;

/** The headers of every answer made here: the security headers, and never kept by a cache. */
const errorHeaders = (hsts: boolean) => ({
  ...securityHeaderSet(hsts),
  "content-security-policy": API_CSP,
  "cache-control": "no-store",
});

/** The error handler of the protocol a path belongs to (the site's otherwise). */
function handlerOf(path: string) {
  const [, handler] = PROTOCOLS.find(
    ([prefix]) => path === prefix || path.startsWith(`${prefix}/`),
  ) ?? [undefined, rootErrorHandler];
  return handler;
}

/** Fastify's `frameworkErrors`: the router's refusals, through the normal reply. */
export function frameworkErrors(hsts: boolean) {
  const headers = errorHeaders(hsts);
  return (err: FastifyError, request: FastifyRequest, reply: FastifyReply) => {
    // These replies are made outside every route's context, so the onSend hooks do not run (nor
    // the onRequest hook naming the request's id).
    reply.headers(headers);
    reply.header("x-request-id", request.id);
    return handlerOf(pathOf(request))(err, request, reply);
  };
}

/**
 * The path of the request a client error interrupted: the request being received on the
 * connection (a body cut short, its chunked encoding malformed, too slow), else the request line
 * Node could not finish parsing (headers too large, a malformed line), when it can be read.
 * Headers too slow carry none of it (Node's timeout error has no request yet): the site's shape.
 */
function interruptedPath(
  err: NodeJS.ErrnoException & { rawPacket?: Buffer },
  current: IncomingMessage | undefined,
) {
  if (current) return current.url;
  const line = err.rawPacket?.toString("latin1").split("\r\n", 1)[0] ?? "";
  const target = /^[A-Z]+ +(\S+)/.exec(line)?.[1];
  if (!target) return undefined;
  if (target.startsWith("/")) return target;
  return URL.canParse(target) ? new URL(target).pathname : undefined;
}

/**
 * The answer a protocol's error handler makes to an error, as status, headers and body: for
 * errors no Fastify request exists for, answered on the socket itself.
 */
function answerOf(err: FastifyError, url: string) {
  const answer = { status: 500, headers: {} as Record<string, string>, body: "" };
  const reply = {
    code(status: number) {
      answer.status = status;
      return reply;
    },
    header(name: string, value: unknown) {
      answer.headers[name.toLowerCase()] = String(value);
      return reply;
    },
    type(value: string) {
      return reply.header("content-type", value);
    },
    send(payload?: unknown) {
      answer.body = typeof payload === "string" ? payload : JSON.stringify(payload ?? {});
      return reply;
    },
  };
  const quiet = () => {};
  const request = { url, raw: { url }, log: { info: quiet, warn: quiet, error: quiet } };
  handlerOf(splitTarget(url).path)(
    err,
    request as unknown as FastifyRequest,
    reply as unknown as FastifyReply,
  );
  return answer;
}

/**
 * Fastify's `clientErrorHandler`: what Node could not parse or wait for (a malformed request line
 * or chunked body, headers too large, a request too slow), answered on the socket itself in the
 * shape of the protocol of the request's path when it can be read (the site's otherwise), with
 * the security headers.
 */
export function clientErrors(hsts: boolean) {
  const headers = errorHeaders(hsts);
  const refused = new WeakSet<Socket>();
  return function clientErrorHandler(err: NodeJS.ErrnoException, socket: Socket) {
    // Node may report more of the same connection (more bytes it cannot parse): it is refused once.
    if (err.code === "ECONNRESET" || socket.destroyed || refused.has(socket)) return;
    refused.add(socket);
    const interrupted = requestInProgress(socket);
    const status =
      err.code === "ERR_HTTP_REQUEST_TIMEOUT"
        ? 408
        : err.code === "HPE_HEADER_OVERFLOW"
          ? 431
          : 400;
    const path = interruptedPath(err, interrupted?.request) ?? "/";
    const answered = (answer: ServerResponse | undefined) =>
      answer !== undefined && (answer.headersSent || answer.writableEnded);
    // The refusal goes after the answers of the requests before it on the connection.
    const refuse = () => {
      // A request answered before its body finished arriving (refused at once) has its answer:
      // nothing is written after it, the connection ends once it is sent.
      if (answered(interrupted?.response))
        return afterOwedAnswers(socket, () => socket.destroy(err));
      const refusal = Object.assign(new Error(reasonPhrase(status)), {
        statusCode: status,
      }) as FastifyError;
      const answer = answerOf(refusal, path);
      const head = Object.entries({
        "content-type": "application/json; charset=utf-8",
        ...answer.headers,
        ...headers,
        "content-length": String(Buffer.byteLength(answer.body)),
        connection: "close",
      })
        .map(([name, value]) => `${name}: ${value}\r\n`)
        .join("");
      if (socket.writable)
        socket.write(
          `HTTP/1.1 ${answer.status} ${reasonPhrase(answer.status)}\r\n${head}\r\n${answer.body}`,
        );
      socket.destroy(err);
    };
    afterOwedAnswers(socket, refuse, interrupted?.response);
  };
}

/**
 * A CONNECT request: Node hands it to the server's `connect` listeners, and without one destroys
 * its socket unanswered. Nothing here tunnels, so it is routed as any request is and refused as
 * every method a path takes no action for (a 405 in the path's protocol's shape, with Allow where
 * the others have it, and the security headers); an authority (`host:port`) names no path and
 * gets the site's answer. The connection closes once the answer is sent.
 */
export function refuseConnect(app: FastifyInstance) {
  app.server.on("connect", (request: IncomingMessage, socket: Socket) => {
    // Its answer waits for those of the requests before it on the connection.
    afterOwedAnswers(socket, () => {
      // An answer before it ended the connection (Connection: close): nothing more is written.
      if (!socket.writable) return socket.destroy();
      const response = new ServerResponse(request);
      response.shouldKeepAlive = false;
      response.assignSocket(socket);
      response.on("finish", () => {
        response.detachSocket(socket);
        socket.destroySoon();
      });
      app.routing(request, response);
    });
  });
}

/**
 * Requests that arrive while the server closes are refused with 503 (and Retry-After) by the
 * error handler of their path's protocol: Fastify's `return503OnClosing` is off for this.
 */
export function refuseWhileClosing(app: FastifyInstance) {
  let closing = false;
  app.addHook("preClose", async () => {
    closing = true;
  });
  // A callback hook, not an async one: it runs on every request, and an async hook costs a
  // promise and a microtask each time.
  app.addHook("onRequest", (_request, _reply, done) => {
    if (closing) done(new ServerClosing());
    else done();
  });
}

/**
 * A request names its host in exactly one well-formed Host header, which HTTP/1.1 requires (RFC
 * 9112 §3.2): a second Host line, or a value that is no host (spaces, a path, user info, an
 * unclosed IPv6 address), is refused with 400. Node's own refusal of a missing one
 * (`requireHostHeader`) is a bare 400, and Node keeps the first of several Host lines without a
 * word; this one is answered like any other error of the path's protocol.
 */
export function requireHost(
  request: FastifyRequest,
  _reply: FastifyReply,
  done: (err?: Error) => void,
) {
  const problem = hostProblem(request.raw);
  if (problem) done(Object.assign(new Error(problem), { statusCode: 400 }));
  else done();
}
