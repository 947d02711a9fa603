// The newsletter service of the app: the signed links of its emails (app.newsletter.links), the
// pages behind them, the archive of sent issues, the mail provider's bounces and complaints, and
// the sender that queues each sending issue's copies into the outbox at the configured rate
// (sender.ts), in every instance: five times a second while an issue goes out, every two seconds
// when idle, and then with one question (hasWork) instead of its three steps. Addresses left
// unconfirmed go with the other deletions (platform/retention.ts).
import type { FastifyInstance } from "fastify";
import fp from "fastify-plugin";
import { Chore } from "../platform/chore.ts";
import newsletterArchive from "./archive.ts";
import { NewsletterLinks } from "./links.ts";
import newsletterPages from "./pages.ts";
import providerEvents from "./provider-events.ts";
import { hasWork, queueNextCopies, recordOutcomes, startDueIssues } from "./sender.ts";

declare module "fastify" {
  interface FastifyInstance {
    newsletter: {
      links: NewsletterLinks;
      /** Has the sender look now (an issue was scheduled), not after its idle wait. */
      wake: () => void;
    };
  }
}

/**
 * How often each instance looks for issues to start, copies to queue and outcomes to record while
 * an issue is going out; with nothing to do, it looks every IDLE_MS (or when woken).
 */
const SENDER_TICK_MS = 200;
const IDLE_MS = 2_000;

export default fp(
  async function newsletter(app: FastifyInstance) {
    const links = new NewsletterLinks(app.keys.derive("newsletter-links"), app.config.siteUrl);
    const log = app.log.child({ module: "newsletter" });
    /**
     * 0 while there is work (or the sender was woken); else when the idle wait ends, after which a
     * look asks one question (hasWork) before it runs the steps.
     */
    let idleUntil = 0;
    const sender = new Chore(async () => {
      if (performance.now() < idleUntil) return;
      try {
        if (idleUntil !== 0 && !(await hasWork(app.db))) {
          idleUntil = performance.now() + IDLE_MS;
          return;
        }
        idleUntil = 0;
        const started = await startDueIssues(app.db);
        const recorded = await recordOutcomes(app.db);
        const queued = await queueNextCopies(app.db, { rate: app.config.newsletterRate, links });
        if (queued) app.mailer.flush();
        if (started === 0 && recorded === 0 && queued === undefined)
          idleUntil = performance.now() + IDLE_MS;
      } catch (err) {
        log.warn({ err }, "could not send the newsletter's next copies; will try again");
      }
    }, SENDER_TICK_MS);
    app.decorate("newsletter", { links, wake: () => (idleUntil = 0) });
    await app.register(newsletterPages);
    await app.register(newsletterArchive);
    await app.register(providerEvents);
    app.addHook("onReady", async () => sender.start());
    app.addHook("onClose", () => sender.stop());
  },
  { name: "newsletter", dependencies: ["services", "mailer"] },
);
