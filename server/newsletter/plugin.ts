// The newsletter service of the app: the signed links of its emails (app.newsletter.links), the
// pages behind them, the archive of sent issues, the mail provider's bounces and complaints, and
// the sender that queues each sending issue's copies into the outbox at the configured rate
// (sender.ts), in every instance. Addresses left unconfirmed go with the other deletions
// (platform/retention.ts).
import type { FastifyInstance } from "fastify";
import fp from "fastify-plugin";
import { Chore } from "../platform/chore.ts";
import newsletterArchive from "./archive.ts";
import { NewsletterLinks } from "./links.ts";
import newsletterPages from "./pages.ts";
import providerEvents from "./provider-events.ts";
import { queueNextCopies, recordOutcomes, startDueIssues } from "./sender.ts";

declare module "fastify" {
  interface FastifyInstance {
    newsletter: { links: NewsletterLinks; sender: Chore };
  }
}

/** How often each instance looks for issues to start, copies to queue and outcomes to record. */
const SENDER_TICK_MS = 200;

export default fp(
  async function newsletter(app: FastifyInstance) {
    const links = new NewsletterLinks(app.keys.derive("newsletter-links"), app.config.siteUrl);
    const log = app.log.child({ module: "newsletter" });
    const sender = new Chore(async () => {
      try {
        await startDueIssues(app.db);
        await recordOutcomes(app.db);
        if ((await queueNextCopies(app.db, { rate: app.config.newsletterRate, links })) > 0)
          app.mailer.flush();
      } catch (err) {
        log.warn({ err }, "could not send the newsletter's next copies; will try again");
      }
    }, SENDER_TICK_MS);
    app.decorate("newsletter", { links, sender });
    await app.register(newsletterPages);
    await app.register(newsletterArchive);
    await app.register(providerEvents);
    app.addHook("onReady", async () => sender.start());
    app.addHook("onClose", () => sender.stop());
  },
  { name: "newsletter", dependencies: ["services", "mailer"] },
);
