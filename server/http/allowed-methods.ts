// The methods a path is served by, for the Allow header of a 405: every method some route takes
// there, catch-alls (`/*`, the protocols' 404s and the site's files) left out. None when the
// request's own method is among them: its route chose the 404 (a page hidden from this caller).
import type { FastifyRequest } from "fastify";
import { pathOf } from "./request-target.ts";

export function allowedMethods(request: FastifyRequest): string[] {
  const app = request.server;
  const path = pathOf(request);
  const allowed = app.supportedMethods.filter((method) => {
    const route = app.findRoute({ method, url: path });
    return route !== null && !Object.hasOwn(route.params as object, "*");
  });
  return allowed.includes(request.method) ? [] : allowed;
}
