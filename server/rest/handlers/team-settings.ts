// PATCH /rest/v1/team_settings: the team's admins (on aal2, checked against the database on every
// request: team-access.ts) change the team's time zone, logged in the same transaction; this
// instance uses it at once, the others within their next read (team/time-zone.ts). The table has
// one row, so a change names no filter (one that does is refused rather than ignored). The row is
// read as the other relations are (readable.ts `team_settings`).
import type { FastifyInstance } from "fastify";
import { teamSettingsSchema } from "../../../common/workspace.ts";
import { recordAudit } from "../../audit/audit-log.ts";
import { PostgrestError } from "../errors.ts";
import { oneRowOf } from "../one-row.ts";
import { actorOf, assertTeamAdmin } from "../team-access.ts";
import { claimsOf } from "../request.ts";

const TABLE = "team_settings";

export default async function teamSettings(app: FastifyInstance) {
  app.patch<{ Querystring: Record<string, string | undefined> }>(
    `/${TABLE}`,
    async (request, reply) => {
      const admin = await assertTeamAdmin(app.db, await claimsOf(app, request), `table ${TABLE}`);
      const filter = Object.keys(request.query).find((name) => name !== "apikey");
      if (filter !== undefined)
        throw new PostgrestError(
          400,
          "PGRST100",
          `"failed to parse filter (${filter})"`,
          "team_settings has one row: a change names no filter",
        );
      const { time_zone } = oneRowOf(teamSettingsSchema.strict(), request.body, TABLE);
      await app.db.transaction(async (tx) => {
        const { from } = await app.teamTimeZone.change(tx, time_zone);
        await recordAudit(tx, request, actorOf(admin), "team_time_zone_changed", {
          from,
          to: time_zone,
        });
      });
      return reply.code(204).send();
    },
  );
}
