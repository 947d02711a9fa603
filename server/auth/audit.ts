// The audit log's entries of auth events (../audit/audit-log.ts): a user as GoTrue names them (by
// their phone number, else their address, and their full_name when they gave one), and an entry
// written in the caller's statement or transaction.
import type { FastifyRequest } from "fastify";
import { TEAM_ROLES } from "../../common/workspace.ts";
import type { AuditAction } from "../../common/audit.ts";
import { recordAudit, SERVICE_ROLE_ACTOR, type AuditActor } from "../audit/audit-log.ts";
import type { Queryable } from "../db/database.ts";
import type { UserRow } from "./models/users.ts";

export function userActor(
  user: Pick<UserRow, "id" | "email" | "phone" | "raw_user_meta_data">,
): AuditActor {
  return {
    id: user.id,
    username: user.phone || user.email || "",
    name: user.raw_user_meta_data?.full_name,
  };
}

/** Writes the entry of what `user` did, in `q` (the event's transaction). */
export const auditUser = (
  q: Queryable,
  request: FastifyRequest,
  user: Pick<UserRow, "id" | "email" | "phone" | "raw_user_meta_data">,
  action: AuditAction,
  traits?: Record<string, unknown>,
) => recordAudit(q, request, userActor(user), action, traits);

type Target = Pick<UserRow, "id" | "email" | "phone">;

/**
 * Writes the entry of what the service-role key (or `actor`, a team admin in the workspace) did
 * to a user, in `q` (GoTrue's traits).
 */
export const auditAdmin = (
  q: Queryable,
  request: FastifyRequest,
  action: AuditAction,
  target: Target,
  traits: Record<string, unknown> = {},
  actor: AuditActor = SERVICE_ROLE_ACTOR,
) =>
  recordAudit(q, request, actor, action, {
    user_id: target.id,
    user_email: target.email ?? "",
    user_phone: target.phone ?? "",
    ...traits,
  });

const teamRoleOf = (user: Pick<UserRow, "raw_app_meta_data">) => {
  const role = user.raw_app_meta_data?.team_role;
  return typeof role === "string" && (TEAM_ROLES as readonly string[]).includes(role)
    ? role
    : undefined;
};

/**
 * A change of app_metadata that gives, changes or takes away a team role: the workspace's entry
 * (team_role_granted with the new role, team_role_removed with the former one).
 */
export async function auditTeamRole(
  q: Queryable,
  request: FastifyRequest,
  before: Target & Pick<UserRow, "raw_app_meta_data">,
  after: Target & Pick<UserRow, "raw_app_meta_data">,
  actor: AuditActor = SERVICE_ROLE_ACTOR,
): Promise<void> {
  const [was, is] = [teamRoleOf(before), teamRoleOf(after)];
  if (was === is) return;
  if (is) await auditAdmin(q, request, "team_role_granted", after, { role: is }, actor);
  else await auditAdmin(q, request, "team_role_removed", after, { role: was }, actor);
}
