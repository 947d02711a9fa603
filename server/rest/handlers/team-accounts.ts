// POST, PATCH and DELETE /rest/v1/team_accounts: the team's admins (on aal2, checked against the
// database on every request: team-access.ts) invite people, change a member's role and take
// members off the team (auth/team-changes.ts, each change in one transaction with its audit
// entries). The list itself is read as the other relations are (readable.ts `team_accounts`);
// resetting a member's second factor is a function (handlers/functions.ts).
import type { FastifyInstance, FastifyRequest } from "fastify";
import { TEAM_ROLES, teamInviteSchema, type TeamRole } from "../../../common/workspace.ts";
import { changeTeamRole, inviteToTeam, type TeamAdmin } from "../../auth/team-changes.ts";
import { PostgrestError } from "../errors.ts";
import { claimsOf } from "../request.ts";
import { checkViolation, idFilter, notNullViolation, rowOf } from "../one-row.ts";
import { actorOf, assertTeamAdmin } from "../team-access.ts";

const TABLE = "team_accounts";

/** The admin as a change names them: the audit log's actor, and the address emails give. */
export async function teamAdminOf(
  app: FastifyInstance,
  request: FastifyRequest,
  relation: string,
): Promise<TeamAdmin> {
  const reader = await assertTeamAdmin(app.db, await claimsOf(app, request), relation);
  return { actor: actorOf(reader), email: reader.email ?? "The website's operator" };
}

/** An invitation's row: the shared schema's refusal as the check it stands for. */
function readInvite(body: unknown) {
  const row = rowOf(body, ["email", "role", "note"], TABLE);
  for (const column of ["email", "role"])
    if (row[column] === undefined || row[column] === null) throw notNullViolation(TABLE, column);
  const parsed = teamInviteSchema.safeParse(row);
  if (!parsed.success) {
    // The form's own message, as the lead inserts give theirs.
    const issue = parsed.error.issues[0]!;
    const column = String(issue.path[0] ?? "email");
    throw new PostgrestError(
      400,
      "23514",
      `new row for relation "${TABLE}" violates check constraint "${TABLE}_${column}_check"`,
      issue.message,
    );
  }
  return parsed.data;
}

function readRole(body: unknown): TeamRole {
  const { role } = rowOf(body, ["role"], TABLE);
  if (!(TEAM_ROLES as readonly unknown[]).includes(role))
    throw checkViolation(TABLE, "role", "member or admin");
  return role as TeamRole;
}

const lastAdmin = () =>
  new PostgrestError(
    400,
    "P0001",
    "The team needs an admin: make another member an admin first",
    "At least one admin whose address is proven must stay on the team.",
  );

export default async function teamAccounts(app: FastifyInstance) {
  app.post(`/${TABLE}`, async (request, reply) => {
    const admin = await teamAdminOf(app, request, `table ${TABLE}`);
    const invite = readInvite(request.body);
    const done = await app.db.transaction((q) =>
      inviteToTeam({ q, request, admin }, app.mailer, { ...invite, siteUrl: app.config.siteUrl }),
    );
    if (done.kind === "already")
      throw new PostgrestError(
        409,
        "23505",
        `duplicate key value violates unique constraint "${TABLE}_email_key"`,
        `Key (email)=(${invite.email}) already exists.`,
      );
    app.mailer.flush();
    return reply.code(201).send();
  });

  app.route<{ Querystring: Record<string, string | undefined> }>({
    method: ["PATCH", "DELETE"],
    url: `/${TABLE}`,
    async handler(request, reply) {
      const admin = await teamAdminOf(app, request, `table ${TABLE}`);
      const verb = request.method === "PATCH" ? "UPDATE" : "DELETE";
      const id = idFilter(request.query, verb, "member");
      const role = verb === "UPDATE" ? readRole(request.body) : null;
      const done = await app.db.transaction((q) => changeTeamRole({ q, request, admin }, id, role));
      if (done.kind === "last_admin") throw lastAdmin();
      return reply.code(204).send();
    },
  });
}
