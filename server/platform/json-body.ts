// JSON bodies: Fastify's own parser (prototype-poisoning safe), except that an empty body means
// "no body". supabase-js sends POST /logout with a JSON content type and no body; the default
// parser would answer 400 and the user would stay signed in.
import type { FastifyInstance } from "fastify";
import fp from "fastify-plugin";

export default fp(
  async function jsonBody(app: FastifyInstance) {
    const parse = app.getDefaultJsonParser("error", "error");
    app.removeContentTypeParser("application/json");
    app.addContentTypeParser("application/json", { parseAs: "string" }, (request, body, done) => {
      const text = typeof body === "string" ? body : body.toString("utf8");
      if (text.trim() === "") return done(null, undefined);
      parse(request, text, done);
    });
  },
  { name: "json-body" },
);
