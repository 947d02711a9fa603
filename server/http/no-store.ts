// The APIs answer with personal data (sessions, users, leads, a visitor's own submissions) and
// errors about them: no browser or shared cache keeps an answer of theirs unless its handler
// chose a Cache-Control of its own (the auth service's public keys).
import type { FastifyInstance } from "fastify";

/** Marks every answer of the scope `no-store`, unless its handler set a Cache-Control. */
export function noStoreUnlessSet(app: FastifyInstance): void {
  app.addHook("onSend", (_request, reply, payload, done) => {
    if (!reply.hasHeader("cache-control")) reply.header("cache-control", "no-store");
    done(null, payload);
  });
}
