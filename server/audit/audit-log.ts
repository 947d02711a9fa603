// The audit log (auth.audit_log_entries, GoTrue's table): who did what, from which address and
// browser, and when. Each entry is written by the statement or the transaction of its event, so an
// event that is rolled back leaves no entry and one that is committed always has one. The payload
// is GoTrue's (actor_id, actor_username, actor_name, actor_via_sso, action, log_type, traits); the
// user agent is kept in a column of its own. This module alone writes and reads the table.
import type { FastifyRequest } from "fastify";
import { LOG_TYPES, type AuditAction } from "../../common/audit.ts";
import type { Queryable } from "../db/database.ts";
import { inBatches } from "../platform/retention.ts";

/** Who did it: a user (their id, and their phone number, else their address), or a role. */
export type AuditActor = { id: string; username: string; name?: unknown };

/** The nil UUID GoTrue gives an actor that is no user (the service-role key, an unknown address). */
export const NIL_UUID = "00000000-0000-0000-0000-000000000000";

/** The service-role key, as GoTrue names it in an admin's entries. */
export const SERVICE_ROLE_ACTOR: AuditActor = { id: NIL_UUID, username: "service_role" };

/** Where the request came from: the client's address (the trusted proxy's view) and browser. */
const originOf = (request: FastifyRequest) => ({
  ip: request.ip.slice(0, 64),
  userAgent: (request.headers["user-agent"] ?? "").slice(0, 512),
});

/** GoTrue's payload of an entry. */
function payloadOf(actor: AuditActor, action: AuditAction, traits?: Record<string, unknown>) {
  return {
    actor_id: actor.id,
    actor_via_sso: false,
    actor_username: actor.username,
    ...(actor.name !== undefined && { actor_name: actor.name }),
    action,
    log_type: LOG_TYPES[action],
    ...(traits && { traits }),
  };
}

/**
 * An entry's INSERT with its three parameters from `$first` on (`auditParams`), for a statement
 * that stores it with the event's own rows (a `WITH` part).
 */
export const auditInsert = (first: number) =>
  `INSERT INTO auth.audit_log_entries (payload, ip_address, user_agent) VALUES ($${first}::jsonb, $${first + 1}, $${first + 2})`;

/** The parameters of `auditInsert`. */
export function auditParams(
  request: FastifyRequest,
  actor: AuditActor,
  action: AuditAction,
  traits?: Record<string, unknown>,
): unknown[] {
  const { ip, userAgent } = originOf(request);
  return [JSON.stringify(payloadOf(actor, action, traits)), ip, userAgent];
}

const INSERT = auditInsert(1);

/** Writes an entry, in the caller's transaction when `q` is one. */
export async function recordAudit(
  q: Queryable,
  request: FastifyRequest,
  actor: AuditActor,
  action: AuditAction,
  traits?: Record<string, unknown>,
): Promise<void> {
  await q.query(INSERT, auditParams(request, actor, action, traits));
}

export type AuditEntry = {
  id: string;
  payload: Record<string, unknown>;
  created_at: Date;
  ip_address: string;
};

/** The payload fields each filter scope of the admin API searches (GoTrue's filterColumnMap). */
export const FILTER_SCOPES = {
  author: ["actor_username", "actor_name"],
  action: ["action"],
  type: ["log_type"],
} as const;

export type AuditFilter = { scope: keyof typeof FILTER_SCOPES; text: string };

/** The text matches anywhere in the field, in any case, its own % and _ taken literally. */
const containing = (text: string) => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/**
 * A page of entries, newest first, and how many there are in all; with a filter, those whose
 * fields of its scope contain its text.
 */
export async function findAuditEntries(
  q: Queryable,
  filter: AuditFilter | undefined,
  page: { page: number; perPage: number },
): Promise<{ entries: AuditEntry[]; total: number }> {
  const offset = (page.page - 1) * page.perPage;
  if (!filter || filter.text === "") {
    const [entries, [count]] = await Promise.all([
      q.query<AuditEntry>(
        `SELECT id, payload, created_at, ip_address FROM auth.audit_log_entries
         ORDER BY created_at DESC, seq DESC LIMIT $1 OFFSET $2`,
        [page.perPage, offset],
      ),
      q.query<{ n: number }>(
        "SELECT count(*)::int AS n /* whole table: the admin API's total */ FROM auth.audit_log_entries",
      ),
    ]);
    return { entries, total: count!.n };
  }
  const where = FILTER_SCOPES[filter.scope]
    .map((field) => `payload->>'${field}' ILIKE $1`)
    .join(" OR ");
  const [entries, [count]] = await Promise.all([
    q.query<AuditEntry>(
      `SELECT id, payload, created_at, ip_address FROM auth.audit_log_entries
       WHERE ${where} ORDER BY created_at DESC, seq DESC LIMIT $2 OFFSET $3`,
      [containing(filter.text), page.perPage, offset],
    ),
    q.query<{ n: number }>(`SELECT count(*)::int AS n FROM auth.audit_log_entries WHERE ${where}`, [
      containing(filter.text),
    ]),
  ]);
  return { entries, total: count!.n };
}

/** Days an entry is kept (the privacy policy says so). */
export const AUDIT_KEEP_DAYS = 365;

const EXPIRED = `WITH gone AS (
       DELETE FROM auth.audit_log_entries WHERE id = ANY(ARRAY(
         SELECT id FROM auth.audit_log_entries
         WHERE created_at < now() - make_interval(days => $1) ORDER BY created_at LIMIT $2
       )) RETURNING 1
     )
     SELECT count(*)::int AS deleted FROM gone`;

/** Deletes the entries older than AUDIT_KEEP_DAYS, the oldest first, in batches; how many went. */
export function deleteExpiredAuditEntries(q: Queryable): Promise<number> {
  return inBatches(async (limit) => {
    const [row] = await q.query<{ deleted: number }>(EXPIRED, [AUDIT_KEEP_DAYS, limit]);
    return row!.deleted;
  });
}
