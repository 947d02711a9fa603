// The team's time zone in every instance (time-zone.ts): read when the server starts, then every
// REFRESH_MS, so an admin's change on one instance reaches the others.
import type { FastifyInstance } from "fastify";
import fp from "fastify-plugin";
import { Chore } from "../platform/chore.ts";
import { REFRESH_MS, TeamTimeZone } from "./time-zone.ts";

declare module "fastify" {
  interface FastifyInstance {
    teamTimeZone: TeamTimeZone;
  }
}

export default fp(
  async function teamTimeZone(app: FastifyInstance) {
    const zone = new TeamTimeZone(app.db, app.config.teamTimeZone);
    await zone.load();
    const log = app.log.child({ module: "team-time-zone" });
    const chore = new Chore(async () => {
      try {
        await zone.refresh();
      } catch (err) {
        log.warn({ err }, "could not read the team's time zone; will try again");
      }
    }, REFRESH_MS);
    app.decorate("teamTimeZone", zone);
    app.addHook("onReady", async () => chore.start());
    app.addHook("onClose", () => chore.stop());
  },
  { name: "team-time-zone", dependencies: ["services"] },
);
