// HEAD never runs a GET's handler in a scope that opts out of it: Fastify answers HEAD on every GET
// route by running the GET and dropping the body, so a link scanner's HEAD on a link that does
// something (a verification link, a request that sends a code) would do it. The scope answers
// HEAD on such a path with 405 and the path's methods in Allow, before any other hook of its
// routes runs (a rate limit is not spent either), as GoTrue's router does (chi routes no HEAD to a
// GET). A path the scope does not route, and a route that takes HEAD itself (a catch-all), is
// left to its route.
import type { FastifyInstance } from "fastify";

export function refuseHeadOnGet(app: FastifyInstance): void {
  /** Each route's methods as registered, Fastify's own HEAD routes left out. */
  const methodsByUrl = new Map<string, string[]>();
  app.addHook("onRoute", (route) => {
    const methods = [route.method].flat();
    if (methods.length === 1 && methods[0] === "HEAD") return;
    methodsByUrl.set(route.url, [...(methodsByUrl.get(route.url) ?? []), ...methods]);
  });
  app.addHook("onRequest", async (request, reply) => {
    if (request.method !== "HEAD") return;
    const methods = methodsByUrl.get(request.routeOptions.url ?? "");
    if (!methods || methods.includes("HEAD")) return;
    return reply.code(405).header("allow", methods.join(", ")).send();
  });
}
