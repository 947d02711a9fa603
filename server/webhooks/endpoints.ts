// The endpoints events go to (public.webhook_endpoints). The workspace will manage its own rows;
// the operator's LEAD_WEBHOOK_URL is kept in the row with a fixed id, written at every start, so
// its events get the same guarantees as any endpoint's (queued with the lead, claimed, retried).
import type { LeadWebhook } from "../config.ts";
import type { Queryable } from "../db/database.ts";

/** The id of the row that holds LEAD_WEBHOOK_URL and LEAD_WEBHOOK_SECRET. */
export const ENV_ENDPOINT_ID = "00000000-0000-4000-8000-00000000e4e0";

/**
 * Writes the environment's endpoint: its URL and secret, enabled; or, with none configured, the
 * row (if any) disabled. A disabled endpoint gets no new events and its waiting deliveries wait
 * until it is enabled again. Every instance must be given the same values.
 */
export async function syncEnvEndpoint(db: Queryable, hook: LeadWebhook | undefined) {
  if (hook) {
    await db.query(
      `INSERT INTO public.webhook_endpoints (id, url, secret, description, enabled)
       VALUES ($1, $2, $3, 'LEAD_WEBHOOK_URL', true)
       ON CONFLICT (id) DO UPDATE SET url = EXCLUDED.url, secret = EXCLUDED.secret, enabled = true`,
      [ENV_ENDPOINT_ID, hook.url, hook.secret],
    );
  } else {
    await db.query(
      "UPDATE public.webhook_endpoints SET enabled = false WHERE id = $1 AND enabled",
      [ENV_ENDPOINT_ID],
    );
  }
}
