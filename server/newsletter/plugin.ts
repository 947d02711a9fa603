// The newsletter service of the app: the signed links of its emails (app.newsletter.links) and the
// pages behind them. Addresses left unconfirmed go with the other deletions (platform/retention.ts).
import type { FastifyInstance } from "fastify";
import fp from "fastify-plugin";
import { NewsletterLinks } from "./links.ts";
import newsletterPages from "./pages.ts";

declare module "fastify" {
  interface FastifyInstance {
    newsletter: { links: NewsletterLinks };
  }
}

export default fp(
  async function newsletter(app: FastifyInstance) {
    app.decorate("newsletter", {
      links: new NewsletterLinks(app.keys.derive("newsletter-links"), app.config.siteUrl),
    });
    await app.register(newsletterPages);
  },
  { name: "newsletter", dependencies: ["services"] },
);
