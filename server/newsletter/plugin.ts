// The newsletter service of the app: the signed links of its emails (app.newsletter.links), the
// pages behind them, and the deletion of addresses left unconfirmed (hourly in every instance:
// a DELETE any of them may run, twice changing nothing).
import type { FastifyInstance } from "fastify";
import fp from "fastify-plugin";
import { Chore } from "../platform/chore.ts";
import { NewsletterLinks } from "./links.ts";
import newsletterPages from "./pages.ts";
import { deleteUnconfirmed } from "./subscribers.ts";

declare module "fastify" {
  interface FastifyInstance {
    newsletter: { links: NewsletterLinks };
  }
}

const CLEANUP_MS = 3_600_000;

export default fp(
  async function newsletter(app: FastifyInstance) {
    app.decorate("newsletter", {
      links: new NewsletterLinks(app.keys.derive("newsletter-links"), app.config.siteUrl),
    });
    await app.register(newsletterPages);

    const log = app.log.child({ module: "newsletter" });
    const cleanup = new Chore(async () => {
      try {
        const n = await deleteUnconfirmed(app.db);
        if (n > 0) log.info({ deleted: n }, "deleted newsletter addresses left unconfirmed");
      } catch (err) {
        log.warn({ err }, "could not delete unconfirmed newsletter addresses; will try again");
      }
    }, CLEANUP_MS);
    app.addHook("onReady", async () => cleanup.start());
    app.addHook("onClose", () => cleanup.stop());
  },
  { name: "newsletter", dependencies: ["services"] },
);
