// Runs each member's daily due-leads email (due-reminders.ts) in every instance, every five
// minutes: the day's row decides which instance queues a member's email, and the mail worker
// delivers it.
import type { FastifyInstance } from "fastify";
import fp from "fastify-plugin";
import { Chore } from "../platform/chore.ts";
import { runDueReminders } from "./due-reminders.ts";

/** How often each instance looks for members whose day's email is due. */
const EVERY_MS = 5 * 60_000;

export default fp(
  async function dueReminders(app: FastifyInstance) {
    const log = app.log.child({ module: "due-reminders" });
    const chore = new Chore(async () => {
      try {
        if ((await runDueReminders(app.db, app.config, app.teamTimeZone.current())) > 0)
          app.mailer.flush();
      } catch (err) {
        log.warn({ err }, "could not queue the due-leads emails; will try again");
      }
    }, EVERY_MS);
    app.addHook("onReady", async () => chore.start());
    app.addHook("onClose", () => chore.stop());
  },
  { name: "due-reminders", dependencies: ["services", "mailer", "team-time-zone"] },
);
