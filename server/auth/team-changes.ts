// What a team admin changes about the team in the workspace (rest/handlers/team-accounts.ts): an
// invitation, a role changed or taken away, a member's second factor reset. Each runs in the
// caller's transaction with its audit entries, which name the admin who made the change. The
// command line (`npm run team`) makes the same changes through the admin API, as the operator.
import type { FastifyRequest } from "fastify";
import { teamRoleOf, type TeamRole } from "../../common/workspace.ts";
import type { AuditActor } from "../audit/audit-log.ts";
import type { Queryable } from "../db/database.ts";
import type { Mailer } from "../mail/mailer.ts";
import { auditAdmin, auditTeamRole } from "./audit.ts";
import { teamAddedEmail, teamInviteEmail } from "./emails/account-emails.ts";
import { sendLinkEmail } from "./emails/link-emails.ts";
import { resetSecondFactors } from "./models/factor-reset.ts";
import { deleteTokens } from "./models/one-time-tokens.ts";
import { setTeamRole, stampInvited } from "./models/user-admin.ts";
import { createUser, findUserByEmail, findUserById, type UserRow } from "./models/users.ts";

/** The admin making the change: the audit log's actor, and their address as emails name them. */
export type TeamAdmin = { actor: AuditActor; email: string };

type Change = { q: Queryable; request: FastifyRequest; admin: TeamAdmin };

const roleOf = (user: UserRow) => teamRoleOf({ app_metadata: user.raw_app_meta_data });

/** A role applies to a proven address only (decision 0041). */
const proven = (user: UserRow) => Boolean(user.email_confirmed_at) && !user.email_unproven;

const roleWords: Record<TeamRole, string> = { member: "a member", admin: "an admin" };

/**
 * Puts an address on the team. An account whose address is proven gets the role at once and an
 * email saying who added it and why; any other address is invited (an account made for it when
 * it has none), by an email that says the same and whose link works for 7 days, and the role
 * applies once the link is used. An address already on the team, in either role, is left as it
 * is (`already`): its role is changed, not invited again.
 */
export async function inviteToTeam(
  { q, request, admin }: Change,
  mailer: Mailer,
  invite: { email: string; role: TeamRole; note: string; siteUrl: string },
): Promise<{ kind: "already" | "invited" | "added"; user: UserRow }> {
  const existing = await findUserByEmail(q, invite.email, true);
  if (existing && roleOf(existing)) return { kind: "already", user: existing };
  const workspace = `${invite.siteUrl}/team`;
  const words = { by: admin.email, role: roleWords[invite.role], note: invite.note };
  if (existing && proven(existing)) {
    const user = await setTeamRole(q, existing.id, invite.role, {
      by: admin.email,
      note: invite.note,
    });
    await mailer.enqueue(q, teamAddedEmail(invite.email, { ...words, url: workspace }));
    await auditTeamRole(q, request, existing, user, admin.actor);
    return { kind: "added", user };
  }
  const account =
    existing ??
    (await createUser(q, {
      email: invite.email,
      passwordHash: null,
      metadata: {},
      confirmed: false,
    }));
  await sendLinkEmail(q, mailer, {
    userId: account.id,
    to: invite.email,
    tokenType: "invite",
    verifyType: "invite",
    pkce: undefined,
    siteUrl: invite.siteUrl,
    redirectTo: workspace,
    compose: (link) => teamInviteEmail(link, words),
  });
  await stampInvited(q, account.id);
  const user = await setTeamRole(q, account.id, invite.role, {
    by: admin.email,
    note: invite.note,
  });
  await auditAdmin(q, request, "user_invited", user, { role: invite.role }, admin.actor);
  await auditTeamRole(q, request, account, user, admin.actor);
  return { kind: "invited", user };
}

/**
 * Changes a member's role, or takes them off the team (`role` null: the account stays, an
 * invitation not yet used stops working). Refused when it would leave the team without an admin
 * who can act (`last_admin`): the admins' rows are locked first, so two admins demoting each
 * other at once cannot both succeed.
 */
export async function changeTeamRole(
  { q, request, admin }: Change,
  userId: string,
  role: TeamRole | null,
): Promise<{ kind: "none" | "last_admin" } | { kind: "changed"; user: UserRow }> {
  const admins = await q.query<{ id: string }>(
    `SELECT id FROM auth.users
     WHERE (raw_app_meta_data->>'team_role') = 'admin' AND deleted_at IS NULL
       AND email_confirmed_at IS NOT NULL AND NOT email_unproven
     ORDER BY id FOR UPDATE`,
  );
  const before = await findUserById(q, userId, true);
  if (!before || before.deleted_at || !roleOf(before)) return { kind: "none" };
  const leavesAdmins = role === "admin" || !admins.some((a) => a.id === userId);
  if (!leavesAdmins && admins.length <= 1) return { kind: "last_admin" };
  if (roleOf(before) === role) return { kind: "changed", user: before };
  const user = await setTeamRole(q, userId, role);
  if (role === null) await deleteTokens(q, userId, ["invite"]);
  await auditTeamRole(q, request, before, user, admin.actor);
  return { kind: "changed", user };
}

/**
 * Resets a team member's second factor (a lost phone): their factors and recovery codes go, and
 * they are signed out everywhere; they set up an authenticator app again on their next visit.
 * Undefined when the account is not on the team.
 */
export async function resetMemberFactors(
  { q, request, admin }: Change,
  userId: string,
): Promise<{ factors: number } | undefined> {
  const user = await findUserById(q, userId, true);
  if (!user || user.deleted_at || !roleOf(user)) return undefined;
  const factors = await resetSecondFactors(q, user.id);
  for (const factor of factors)
    await auditAdmin(q, request, "factor_deleted", user, { factor_id: factor.id }, admin.actor);
  return { factors: factors.length };
}
