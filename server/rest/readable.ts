// The relations team members read through GET /rest/v1/{name} (members on aal2 only:
// team-access.ts), in PostgREST's read syntax (read-query.ts): each one's SQL relation and the
// columns a request may name, with their types.
import {
  LEAD_KINDS,
  leadKindLabels,
  leadStatusLabels,
  TEAM_ROLES,
} from "../../common/workspace.ts";
import { ENDPOINT_SHOWN } from "../webhooks/endpoints.ts";

export type ColumnType = "text" | "integer" | "boolean" | "uuid" | "timestamptz" | "date" | "jsonb";
export type ReadRelation = {
  name: string;
  sql: string;
  columns: Record<string, ColumnType>;
  /** Columns a request may filter or order on but that `select=*` leaves out (a search text). */
  filterOnly?: readonly string[];
  /**
   * A relation that unites several tables, each one value of this column (the `leads` view:
   * one form each). A page of it is read as the page of each part, then merged: each part is
   * planned on its own, so each finds its rows through its own best index (the newest by date;
   * a rare match by its search index) instead of one plan for all of them.
   */
  parts?: { column: string; values: readonly string[] };
  /**
   * The same rows, one to one, without what only the answer needs (a joined latest entry): a
   * count whose filters name only these columns reads this instead of the whole relation.
   */
  counted?: { sql: string; columns: readonly string[] };
  /** Read by the team's admins only (and the service-role key), not every member. */
  adminOnly?: boolean;
};

/** A column's values put in the team's words (the code's own words, written as literals). */
const inWords = (column: string, words: Record<string, string>) =>
  `CASE ${column} ${Object.entries(words)
    .map(([value, word]) => `WHEN '${value}' THEN '${word.replaceAll("'", "''")}'`)
    .join(" ")} ELSE ${column} END`;

/**
 * The member a history row names, by the user row `alias`: their address, or "a former member"
 * once they deleted their account (the row stays, erased: decision 0046).
 */
const whoDid = (alias: string) =>
  `CASE WHEN ${alias}.deleted_at IS NOT NULL THEN 'a former member' ELSE ${alias}.email END`;

/**
 * The relations team members read: the inbox of every lead with its history, the outbox of every
 * email, the webhook endpoints (never their secrets) with their delivery log, and the
 * newsletter's subscribers with their status (migration 0020). A subquery here is a relation as
 * a view would be; the filters, order and limit of a request apply to it.
 */
export const READABLE: Record<string, ReadRelation> = {
  emails: {
    name: "emails",
    sql: "public.emails",
    columns: {
      id: "uuid",
      kind: "text",
      to_address: "text",
      subject: "text",
      created_at: "timestamptz",
      attempts: "integer",
      next_attempt_at: "timestamptz",
      sent_at: "timestamptz",
      failed_at: "timestamptz",
      last_error: "text",
      status: "text",
      lead_id: "uuid",
    },
  },
  leads: {
    name: "leads",
    // A member who deleted their account is "a former member" (decision 0046).
    sql: `(SELECT l.*, ${whoDid("u")} AS status_updated_by_email, ${whoDid("o")} AS owner_email,
        ${inWords("l.kind", leadKindLabels)} AS form, ${inWords("l.status", leadStatusLabels)} AS status_word
      FROM public.leads l
      LEFT JOIN auth.users u ON u.id = l.status_updated_by
      LEFT JOIN auth.users o ON o.id = l.owner_id) AS leads`,
    columns: {
      id: "uuid",
      kind: "text",
      created_at: "timestamptz",
      email: "text",
      name: "text",
      company: "text",
      details: "jsonb",
      page: "text",
      referrer: "text",
      utm_source: "text",
      utm_medium: "text",
      utm_campaign: "text",
      status: "text",
      lost_reason: "text",
      owner_id: "uuid",
      owner_email: "text",
      next_step: "text",
      due_on: "date",
      status_updated_by: "uuid",
      status_updated_at: "timestamptz",
      status_updated_by_email: "text",
      // The address in lower case: one person per address (their entries share it).
      person: "text",
      // Name, email and company as one text, indexed for search (migration 0019).
      search: "text",
      // The form's and the status's names as the team reads them (the CSV export's).
      form: "text",
      status_word: "text",
    },
    filterOnly: ["search", "form", "status_word"],
    parts: { column: "kind", values: LEAD_KINDS },
  },
  lead_state_changes: {
    name: "lead_state_changes",
    sql: `(SELECT c.id, c.kind, c.lead_id, to_jsonb(c.fields) AS fields, c.status, c.lost_reason,
        c.owner_id, ${whoDid("o")} AS owner_email, c.next_step, c.due_on, c.note, c.changed_by,
        c.changed_at, c.changed_at AS created_at, ${whoDid("u")} AS changed_by_email
      FROM public.lead_state_changes c
      LEFT JOIN auth.users u ON u.id = c.changed_by
      LEFT JOIN auth.users o ON o.id = c.owner_id) AS lead_state_changes`,
    columns: {
      id: "uuid",
      kind: "text",
      lead_id: "uuid",
      // What the change changed: "status" (with its reason), "owner_id", "next_step" (with the
      // due date), or "note" (the one note of before the timeline: '' when it was removed).
      fields: "jsonb",
      status: "text",
      lost_reason: "text",
      owner_id: "uuid",
      owner_email: "text",
      next_step: "text",
      due_on: "date",
      note: "text",
      changed_by: "uuid",
      changed_by_email: "text",
      // Named created_at too: the CSV export and the newest-first order read it by that name.
      changed_at: "timestamptz",
      created_at: "timestamptz",
    },
  },
  // A lead's timeline of notes, calls logged and emails sent (migration 0039).
  lead_notes: {
    name: "lead_notes",
    sql: `(SELECT n.*, ${whoDid("u")} AS created_by_email
      FROM public.lead_notes n LEFT JOIN auth.users u ON u.id = n.created_by) AS lead_notes`,
    columns: {
      id: "uuid",
      kind: "text",
      lead_id: "uuid",
      type: "text",
      body: "text",
      created_by: "uuid",
      created_by_email: "text",
      created_at: "timestamptz",
    },
  },
  // One row per person (an address, whatever its case: migration 0040), their latest activity
  // first: how many entries, the latest one (its form and status, to open it), and the latest
  // name and company any of their entries gave.
  people: {
    name: "people",
    sql: `(SELECT p.email AS person, p.first_at, p.last_at AS created_at, p.entries,
        latest.id AS lead_id, latest.kind, latest.status, named.name, named.company
      FROM public.people p
      CROSS JOIN LATERAL (
        SELECT l.id, l.kind, l.status FROM public.leads l WHERE l.person = p.email
        ORDER BY l.created_at DESC LIMIT 1
      ) AS latest
      LEFT JOIN LATERAL (
        SELECT l.name, l.company FROM public.leads l WHERE l.person = p.email AND l.name IS NOT NULL
        ORDER BY l.created_at DESC LIMIT 1
      ) AS named ON true) AS people`,
    // Every person has an entry (the people table keeps only those), so the join to the latest
    // entry keeps each row: a count of people is a count of the table's rows.
    counted: {
      sql: `(SELECT email AS person, first_at, last_at AS created_at, entries FROM public.people) AS people`,
      columns: ["person", "first_at", "created_at", "entries"],
    },
    columns: {
      person: "text",
      first_at: "timestamptz",
      created_at: "timestamptz",
      entries: "integer",
      lead_id: "uuid",
      kind: "text",
      status: "text",
      name: "text",
      company: "text",
    },
  },
  // The team's members by address, as a lead's owner is chosen (never anything of their account).
  team_members: {
    name: "team_members",
    sql: `(SELECT u.id, u.email, u.raw_app_meta_data->>'team_role' AS role, u.created_at
      FROM auth.users u
      WHERE u.raw_app_meta_data->>'team_role' IN (${TEAM_ROLES.map((r) => `'${r}'`).join(", ")})
        AND u.deleted_at IS NULL) AS team_members`,
    columns: { id: "uuid", email: "text", role: "text", created_at: "timestamptz" },
  },
  webhook_endpoints: {
    name: "webhook_endpoints",
    sql: `(SELECT ${ENDPOINT_SHOWN}
      FROM public.webhook_endpoints /* whole table: a handful of endpoints */) AS webhook_endpoints`,
    columns: {
      id: "uuid",
      url: "text",
      description: "text",
      enabled: "boolean",
      created_at: "timestamptz",
      created_by: "uuid",
      events_from: "timestamptz",
      from_environment: "boolean",
    },
  },
  webhook_deliveries: {
    name: "webhook_deliveries",
    sql: `(SELECT d.id, d.endpoint_id, e.url AS endpoint_url, d.lead_id, d.created_at, d.attempts,
        d.next_attempt_at, d.last_status, d.last_error, d.delivered_at, d.failed_at,
        CASE WHEN d.delivered_at IS NOT NULL THEN 'delivered' WHEN d.failed_at IS NOT NULL THEN 'failed'
          ELSE 'pending' END AS status
      FROM public.webhook_deliveries d JOIN public.webhook_endpoints e ON e.id = d.endpoint_id)
      AS webhook_deliveries`,
    columns: {
      id: "uuid",
      endpoint_id: "uuid",
      endpoint_url: "text",
      lead_id: "uuid",
      created_at: "timestamptz",
      attempts: "integer",
      next_attempt_at: "timestamptz",
      last_status: "integer",
      last_error: "text",
      delivered_at: "timestamptz",
      failed_at: "timestamptz",
      status: "text",
    },
  },
  // The audit log (migration 0036), for the admins' Security tab: who did what, from where.
  audit_log: {
    name: "audit_log",
    sql: `(SELECT a.id, a.created_at, a.seq, a.payload->>'action' AS action,
        a.payload->>'log_type' AS log_type, a.payload->>'actor_id' AS actor_id,
        a.payload->>'actor_username' AS actor, a.ip_address, a.user_agent,
        a.payload->'traits' AS traits
      FROM auth.audit_log_entries a) AS audit_log`,
    columns: {
      id: "uuid",
      created_at: "timestamptz",
      // The order entries were written in (several can share a millisecond): migration 0037.
      seq: "integer",
      action: "text",
      log_type: "text",
      actor_id: "text",
      actor: "text",
      ip_address: "text",
      user_agent: "text",
      traits: "jsonb",
    },
    filterOnly: ["seq"],
    adminOnly: true,
  },
  // The team's accounts as its admins manage them on the Team tab (migration 0039's index): each
  // member's role, whether their address is proven yet (an invitation not yet used), who invited
  // them and why, until when their invitation works, and whether they set up a second factor.
  team_accounts: {
    name: "team_accounts",
    sql: `(SELECT u.id, u.email, u.raw_app_meta_data->>'team_role' AS role,
        (u.email_confirmed_at IS NOT NULL AND NOT u.email_unproven) AS active,
        u.invited_at, u.raw_app_meta_data->'team_invite'->>'by' AS invited_by,
        u.raw_app_meta_data->'team_invite'->>'note' AS invite_note,
        (SELECT t.expires_at FROM auth.one_time_tokens t
          WHERE t.user_id = u.id AND t.token_type = 'invite') AS invite_expires_at,
        u.last_sign_in_at,
        EXISTS (SELECT 1 FROM auth.mfa_factors f WHERE f.user_id = u.id AND f.status = 'verified')
          AS two_step,
        u.created_at
      FROM auth.users u
      WHERE (u.raw_app_meta_data->>'team_role') IN ('member', 'admin') AND u.deleted_at IS NULL)
      AS team_accounts`,
    columns: {
      id: "uuid",
      email: "text",
      role: "text",
      active: "boolean",
      invited_at: "timestamptz",
      invited_by: "text",
      invite_note: "text",
      invite_expires_at: "timestamptz",
      last_sign_in_at: "timestamptz",
      two_step: "boolean",
      created_at: "timestamptz",
    },
    adminOnly: true,
  },
  // The team's settings (migration 0055): one row, read by every member, changed by admins
  // (handlers/team-settings.ts).
  team_settings: {
    name: "team_settings",
    sql: "(SELECT time_zone, updated_at FROM public.team_settings /* whole table: one row */) AS team_settings",
    columns: { time_zone: "text", updated_at: "timestamptz" },
  },
  subscribers: {
    name: "subscribers",
    sql: "public.subscribers",
    columns: {
      id: "uuid",
      email: "text",
      status: "text",
      created_at: "timestamptz",
      confirmed_at: "timestamptz",
      unsubscribed_at: "timestamptz",
      unsubscribe_reason: "text",
    },
  },
  // The newsletter's issues with their figures (migration 0042): copies queued, sent (the SMTP
  // server took them), delivered (sent and not bounced since), failed (refused, or bounced), and
  // the subscribers who left through the issue's link.
  newsletter_issues: {
    name: "newsletter_issues",
    sql: `(SELECT i.id, i.subject, i.body, i.status, i.send_at, i.number, i.created_at,
        i.updated_at, i.started_at, i.sent_at, ${whoDid("u")} AS created_by_email,
        COALESCE(f.queued, 0) AS queued, COALESCE(f.sent, 0) AS sent,
        COALESCE(f.delivered, 0) AS delivered, COALESCE(f.failed, 0) AS failed,
        COALESCE(f.unsubscribed, 0) AS unsubscribed
      FROM public.newsletter_issues i
      LEFT JOIN auth.users u ON u.id = i.created_by
      LEFT JOIN LATERAL (
        SELECT count(*)::int AS queued,
          count(*) FILTER (WHERE s.sent_at IS NOT NULL)::int AS sent,
          count(*) FILTER (WHERE s.sent_at IS NOT NULL AND s.bounced_at IS NULL)::int AS delivered,
          count(*) FILTER (WHERE s.failed_at IS NOT NULL OR s.bounced_at IS NOT NULL)::int AS failed,
          count(*) FILTER (WHERE s.unsubscribed_at IS NOT NULL)::int AS unsubscribed
        FROM public.newsletter_sends s WHERE s.issue_id = i.id) f ON true) AS newsletter_issues`,
    columns: {
      id: "uuid",
      subject: "text",
      body: "text",
      status: "text",
      send_at: "timestamptz",
      number: "integer",
      created_at: "timestamptz",
      updated_at: "timestamptz",
      started_at: "timestamptz",
      sent_at: "timestamptz",
      created_by_email: "text",
      queued: "integer",
      sent: "integer",
      delivered: "integer",
      failed: "integer",
      unsubscribed: "integer",
    },
  },
};
