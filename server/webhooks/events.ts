// The events sent to the CRM, and the only writer of new rows into public.webhook_deliveries: a
// new lead becomes one `lead.created` event per enabled endpoint, queued by the statement that
// stores the lead (leads/store.ts), so a lead and its deliveries are stored together or not at
// all; a newsletter subscriber's, by the statement that confirms it (newsletter/subscribers.ts).
// The event body is fixed then; every attempt (and a resend) sends the same bytes under the
// same webhook-id (the delivery's id).
import type { LeadKindName } from "../../common/workspace.ts";

const LEAD_CREATED = "lead.created";

/** A time as JavaScript's toISOString writes it, whatever the session's time zone. */
const iso = (column: string) =>
  `to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

/**
 * An INSERT that queues a lead.created event for each enabled endpoint, for a data-modifying WITH
 * whose `lead` query returns the new lead's row (none when nothing was stored, e.g. a repeat that
 * ON CONFLICT DO NOTHING skipped: no event). An endpoint gets the leads stored from its
 * `events_from` on (endpoints.ts). With no endpoint it inserts nothing and costs one
 * look into the (small) endpoints table, in the same round trip. `kind` is the lead's kind as events
 * name it; `columns` are the kind's columns (identifiers from its schema, never from a client); the
 * event's data carries each by its name.
 */
export function queueLeadEventsStatement(
  kind: LeadKindName,
  columns: string[],
  lead: string,
): string {
  const fields = columns.map((c) => `'${c}', l.${c}`).join(", ");
  return `INSERT INTO public.webhook_deliveries (endpoint_id, lead_id, payload)
       SELECT e.id, l.id, jsonb_build_object('type', '${LEAD_CREATED}', 'timestamp', ${iso("l.created_at")},
         'data', jsonb_build_object('id', l.id, 'kind', '${kind}', 'created_at', ${iso("l.created_at")},
           ${fields}, 'source', l.source))
       FROM ${lead} l JOIN public.webhook_endpoints e ON e.enabled AND e.events_from <= now()`;
}
