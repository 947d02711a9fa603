// How long a lead is kept: LEAD_KEEP_MONTHS after the last contact with the person, the latest of
// the lead's own time, its latest request when the form keeps one row per address (Watch Demo),
// the team's last change of its work (public.lead_states) and its latest note (public.lead_notes).
// Then the lead goes with its status, its notes and its history, in one statement per form, so nothing of
// it is left behind. Newsletter subscribers are kept until they unsubscribe and pending ones go
// after 30 days (newsletter/subscribers.ts); copies of what was sent go with the outbox rows
// (queue/claims.ts).
import type { Queryable } from "../db/database.ts";
import { inBatches } from "../platform/retention.ts";
import { contactLead, requestAccessLead, requestDemoLead, watchDemoLead } from "./kinds.ts";
import { RENEWED } from "./store.ts";

/** Months a lead is kept after the last contact (the privacy policy says so). */
export const LEAD_KEEP_MONTHS = 24;

const EXPIRING = [watchDemoLead, requestAccessLead, contactLead, requestDemoLead];

const statements = new Map(
  EXPIRING.map((kind) => [
    kind,
    `WITH gone AS (
       DELETE FROM public.${kind.table} WHERE id IN (
         SELECT l.id FROM public.${kind.table} AS l
         LEFT JOIN public.lead_states AS s ON s.kind = $1 AND s.lead_id = l.id
         WHERE l.created_at < now() - make_interval(months => $2)
           AND (s.updated_at IS NULL OR s.updated_at < now() - make_interval(months => $2))
           AND NOT EXISTS (
             SELECT 1 FROM public.lead_notes AS n WHERE n.kind = $1 AND n.lead_id = l.id
               AND n.created_at >= now() - make_interval(months => $2)
           )${
             kind.reply
               ? `
           AND (l.${RENEWED} IS NULL OR l.${RENEWED} < now() - make_interval(months => $2))`
               : ""
           }
         LIMIT $3
       ) RETURNING id
     ),
     states AS (DELETE FROM public.lead_states WHERE kind = $1 AND lead_id IN (SELECT id FROM gone)),
     changes AS (
       DELETE FROM public.lead_state_changes WHERE kind = $1 AND lead_id IN (SELECT id FROM gone)
     ),
     notes AS (DELETE FROM public.lead_notes WHERE kind = $1 AND lead_id IN (SELECT id FROM gone))
     SELECT count(*)::int AS deleted FROM gone`,
  ]),
);

/** Deletes the leads last in contact LEAD_KEEP_MONTHS ago, with their status and history; how many. */
export async function deleteExpiredLeads(db: Queryable): Promise<number> {
  let total = 0;
  for (const [kind, sql] of statements)
    total += await inBatches(async (limit) => {
      const [row] = await db.query<{ deleted: number }>(sql, [kind.name, LEAD_KEEP_MONTHS, limit]);
      return row!.deleted;
    });
  return total;
}
