// SAML 2.0 single sign-on (sso/sign-on.ts runs it): POST /sso starts a sign-in at the company's
// identity provider (POST /sso/email too, for the sign-in page's form), GET /sso/saml/metadata is
// this service provider's metadata, POST /sso/saml/acs takes the provider's answer. Each answers GoTrue's saml_provider_disabled while
// GOTRUE_SAML_ENABLED is off.
import type { FastifyInstance } from "fastify";
import type { AuthContext } from "../context.ts";
import { acceptFormBodies } from "../form-bodies.ts";
import { assertionConsumer, samlOn, startSignOn, startSignOnByEmail } from "../sso/sign-on.ts";

export default async function sso(app: FastifyInstance, { ctx }: { ctx: AuthContext }) {
  // The provider posts its answer as a form (HTTP-POST binding).
  acceptFormBodies(app);
  app.post("/sso", { onRequest: ctx.limits.hook("sso") }, (request, reply) =>
    startSignOn(ctx, request, reply),
  );
  app.post("/sso/email", { onRequest: ctx.limits.hook("sso") }, (request, reply) =>
    startSignOnByEmail(ctx, request, reply),
  );
  app.get("/sso/saml/metadata", async (request, reply) => {
    const download = (request.query as Record<string, unknown>).download === "true";
    const xml = samlOn(ctx).metadata(download);
    reply.header("content-type", "application/xml").header("cache-control", "public, max-age=600");
    if (download) reply.header("content-disposition", 'attachment; filename="metadata.xml"');
    return reply.send(xml);
  });
  app.post("/sso/saml/acs", { onRequest: ctx.limits.hook("saml_assertion") }, (request, reply) =>
    assertionConsumer(ctx, request, reply),
  );
}
