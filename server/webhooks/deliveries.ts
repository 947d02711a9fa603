// The deliveries of webhook events (public.webhook_deliveries, queued by events.ts): their claims
// (queue/claims.ts), each with the endpoint's URL and secret read when claimed, and a resend.
import type { Queryable } from "../db/database.ts";
import { outboxClaims, type Claimed } from "../queue/claims.ts";

export type DeliveryRow = {
  id: string;
  endpoint_id: string;
  lead_id: string;
  payload: unknown;
  created_at: Date;
  attempts: number;
  next_attempt_at: Date;
  last_status: number | null;
  last_error: string | null;
  delivered_at: Date | null;
  failed_at: Date | null;
};

/** A delivery with where it goes and the secret it is signed with (read when claimed). */
export type Delivery = DeliveryRow & { url: string; secret: string };

export type ClaimedDelivery = Claimed<Delivery>;

/**
 * Claims of the deliveries to enabled endpoints. A disabled endpoint's deliveries wait, claimed
 * by nobody, until it is enabled again; its URL and secret are read at each claim, so a changed
 * endpoint applies to the deliveries still waiting.
 */
export const deliveryClaims = outboxClaims<Delivery>({
  table: "public.webhook_deliveries",
  queue: "webhook",
  done: "delivered_at",
  status: "last_status",
  join: {
    sql: "JOIN public.webhook_endpoints j ON j.id = q.endpoint_id AND j.enabled",
    columns: ["url", "secret"],
  },
});

/**
 * Sends a delivery again (the workspace's "resend"), delivered or failed or still waiting: due
 * now, with a new series of attempts, under the same webhook-id and body (a receiver that drops
 * duplicates by webhook-id drops it too). False when there is no such delivery, or when it is on
 * the wire right now (its outcome is being recorded: ask again in a moment).
 */
export async function resendDelivery(db: Queryable, id: string): Promise<boolean> {
  const rows = await db.query(
    `UPDATE public.webhook_deliveries
     SET delivered_at = NULL, failed_at = NULL, attempts = 0, next_attempt_at = now(),
         claim_token = NULL, locked_until = NULL
     WHERE id = $1 AND (locked_until IS NULL OR locked_until < now()) RETURNING id`,
    [id],
  );
  return rows.length === 1;
}
