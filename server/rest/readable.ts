// The relations team members read through GET /rest/v1/{name} (members on aal2 only:
// team-access.ts), in PostgREST's read syntax (read-query.ts): each one's SQL relation and the
// columns a request may name, with their types.
import type { ReadRelation } from "./read-query.ts";

/** The views team members read: the inbox of every lead, and the outbox of every email. */
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
    sql: "public.leads",
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
      note: "text",
      status_updated_by: "uuid",
      status_updated_at: "timestamptz",
    },
  },
};
