// Who may read the team's data (the leads): a signed-in team member (with a confirmed address)
// whose token and session reached aal2 (a second factor), checked against the database on every request (a role or
// factor removed counts at once, whatever the token still says), or the service-role key.
// Everyone else gets PostgreSQL's refusal for a role without the privilege, as PostgREST answers.
import { TEAM_ROLES } from "../../common/workspace.ts";
import { SERVICE_ROLE_ACTOR, type AuditActor } from "../audit/audit-log.ts";
import type { Queryable } from "../db/database.ts";
import { isUuid } from "../platform/uuid.ts";
import type { Claims } from "../security/tokens.ts";
import { PostgrestError } from "./errors.ts";

type TeamReader = { userId: string | undefined; role: string; email?: string };

/** The team reader as the audit log names them: the member by address, or the service role. */
export const actorOf = (reader: TeamReader): AuditActor =>
  reader.userId ? { id: reader.userId, username: reader.email ?? "" } : SERVICE_ROLE_ACTOR;

/** `relation` as PostgreSQL names it in the refusal: "view leads", "table lead_states". */
export async function assertTeamReader(
  q: Queryable,
  claims: Claims | undefined,
  relation: string,
): Promise<TeamReader> {
  const role = claims?.role ?? "anon";
  if (role === "service_role") return { userId: undefined, role };
  const denied = new PostgrestError(
    role === "anon" ? 401 : 403,
    "42501",
    `permission denied for ${relation}`,
  );
  const { sub, session_id: sessionId, aal } = claims ?? {};
  // Both the token and its session must have passed the second factor: a token issued before
  // the session did stays an aal1 token.
  if (role !== "authenticated" || aal !== "aal2" || !isUuid(sub ?? "") || !isUuid(sessionId ?? ""))
    throw denied;
  const [row] = await q.query<{ team_role: string | null; aal: string; email: string }>(
    `SELECT u.raw_app_meta_data->>'team_role' AS team_role, s.aal, u.email
     FROM auth.users u JOIN auth.sessions s ON s.user_id = u.id
     WHERE u.id = $1 AND s.id = $2 AND u.deleted_at IS NULL
       AND (u.banned_until IS NULL OR u.banned_until <= now())
       -- A role applies to a proven address only: an account somebody pre-registered with a
       -- member's address reads nothing before the address is proven (decision 0041), nor one
       -- MAILER_AUTOCONFIRM confirmed as given.
       AND u.email_confirmed_at IS NOT NULL AND NOT u.email_unproven`,
    [sub, sessionId],
  );
  if (
    !row ||
    !(TEAM_ROLES as readonly string[]).includes(row.team_role ?? "") ||
    row.aal !== "aal2"
  )
    throw denied;
  return { userId: sub, role: row.team_role!, email: row.email };
}

/** A team reader who may also change the team's settings: an admin, or the service-role key. */
export async function assertTeamAdmin(
  q: Queryable,
  claims: Claims | undefined,
  relation: string,
): Promise<TeamReader> {
  const reader = await assertTeamReader(q, claims, relation);
  if (reader.role !== "admin" && reader.role !== "service_role")
    throw new PostgrestError(403, "42501", `permission denied for ${relation}`);
  return reader;
}
