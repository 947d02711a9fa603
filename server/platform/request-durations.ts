// Each answered request's duration in http_server_request_duration_seconds, labelled by method,
// route template and status code: the route as registered (`/rest/v1/:table`), never the path a
// client sent, so the label values are as few as the routes, and a method outside HTTP's known
// ones is `_OTHER`, so a client cannot add label values. It is told of each request by the access
// log when the request is done (logging.ts), so timing adds no hook to the request path.
import type { FastifyReply, FastifyRequest } from "fastify";
import { requestDuration } from "../metrics/metrics.ts";

/** The route label of a request no route matched (a 404, a refusal before routing). */
const UNMATCHED_ROUTE = "unmatched";

export function recordRequestDuration(
  request: FastifyRequest,
  reply: FastifyReply,
  elapsedMs: number,
) {
  const route = request.routeOptions.url ?? UNMATCHED_ROUTE;
  recordDuration(request.method, route, reply.statusCode, elapsedMs);
}

/** The same for a request answered before the framework (site/fast-path.ts), by its route. */
export function recordDuration(method: string, route: string, status: number, elapsedMs: number) {
  requestDuration.observe(method, route, status, elapsedMs / 1000);
}
