// GET /.well-known/jwks.json: the public keys that verify our access tokens (GoTrue's
// WellKnownJwks). Only the asymmetric keys of GOTRUE_JWT_KEYS, public halves only; an HS256
// secret is never shown, so without asymmetric keys the set is empty and clients ask GET /user.
import type { FastifyInstance } from "fastify";

/** As GoTrue: caches may keep the set ten minutes (a new key is published before it signs). */
const CACHE_CONTROL = "public, max-age=600";

export default async function jwks(app: FastifyInstance) {
  app.get("/.well-known/jwks.json", async (_request, reply) => {
    reply.header("cache-control", CACHE_CONTROL);
    return app.tokens.jwks;
  });
}
