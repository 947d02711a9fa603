// Each answered request's duration in http_server_request_duration_seconds, labelled by method,
// route template and status code: the route as registered (`/rest/v1/:table`), never the path a
// client sent, so the label values are as few as the routes. Cheap on the request path: one hook,
// and each label set's child looked up once, then kept.
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { requestDuration } from "../metrics/metrics.ts";

/** OpenTelemetry's known methods; any other is `_OTHER`, so a client cannot add label values. */
const KNOWN_METHODS = new Set([
  "GET",
  "HEAD",
  "POST",
  "PUT",
  "PATCH",
  "DELETE",
  "OPTIONS",
  "TRACE",
  "CONNECT",
]);

/** The route label of a request no route matched (a 404, a refusal before routing). */
export const UNMATCHED_ROUTE = "unmatched";

type Child = ReturnType<typeof requestDuration.labels>;

export function observeRequestDurations(app: FastifyInstance) {
  const children = new Map<string, Child>();
  app.addHook("onResponse", (request: FastifyRequest, reply: FastifyReply, done: () => void) => {
    const method = KNOWN_METHODS.has(request.method) ? request.method : "_OTHER";
    const route = request.routeOptions.url ?? UNMATCHED_ROUTE;
    const status = reply.statusCode;
    const key = `${method} ${status} ${route}`;
    let child = children.get(key);
    if (child === undefined) {
      child = requestDuration.labels(method, route, String(status));
      children.set(key, child);
    }
    child.observe(reply.elapsedTime / 1000);
    done();
  });
}
