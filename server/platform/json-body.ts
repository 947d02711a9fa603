// JSON bodies: Fastify's own parser (prototype-poisoning safe), except that an empty body means
// "no body" (supabase-js sends POST /logout with a JSON content type and no body; the default
// parser would answer 400 and the user would stay signed in), and that a body nested deeper than
// MAX_JSON_DEPTH is refused as invalid JSON before anything recursive (parsing, validation,
// serialisation) walks it.
import type { FastifyInstance } from "fastify";
import fp from "fastify-plugin";

/** Objects and arrays inside one another; every body we accept needs a handful of levels. */
const MAX_JSON_DEPTH = 32;

export default fp(
  async function jsonBody(app: FastifyInstance) {
    const parse = app.getDefaultJsonParser("error", "error");
    app.removeContentTypeParser("application/json");
    app.addContentTypeParser("application/json", { parseAs: "string" }, (request, body, done) => {
      const text = typeof body === "string" ? body : body.toString("utf8");
      if (text.trim() === "") return done(null, undefined);
      if (nestedDeeperThan(text, MAX_JSON_DEPTH)) {
        // Answered as every other body that is not valid JSON (see http/fastify-errors.ts).
        const err = new SyntaxError(`JSON nested deeper than ${MAX_JSON_DEPTH} levels`);
        return done(Object.assign(err, { statusCode: 400 }), undefined);
      }
      parse(request, text, done);
    });
  },
  { name: "json-body" },
);

/** Whether objects and arrays nest deeper than `max` in a JSON text (brackets in strings skipped). */
function nestedDeeperThan(text: string, max: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c)
        i++; // a backslash escapes the next character
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x7b || c === 0x5b) {
      if (++depth > max) return true;
    } else if (c === 0x7d || c === 0x5d) depth--;
  }
  return false;
}
