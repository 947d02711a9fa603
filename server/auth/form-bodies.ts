// Bodies posted as HTML forms (application/x-www-form-urlencoded): an OpenID provider's answer
// (`response_mode=form_post`), a SAML identity provider's (HTTP-POST binding), the site's own
// forms. Each field is its last value, as text.
import type { FastifyInstance } from "fastify";

export function acceptFormBodies(app: FastifyInstance) {
  app.addContentTypeParser(
    "application/x-www-form-urlencoded",
    { parseAs: "string" },
    (_request, body, done) => done(null, Object.fromEntries(new URLSearchParams(body as string))),
  );
}
