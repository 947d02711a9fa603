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

/**
 * Whether any endpoint is enabled, as last read: read at start (after the environment's endpoint
 * is written) and then every refreshMs in the background, never on a request. The lead store
 * queues events only while this says so, so a site without endpoints stores leads as cheaply as
 * before (the events' INSERT costs about as much as the lead's own on the embedded database).
 * An endpoint enabled by another instance gets the leads this one stores from its next read on.
 */
export class EnabledEndpoints {
  private known = false;
  private timer: NodeJS.Timeout | undefined;
  private readonly db: Queryable;
  private readonly onError: (err: unknown) => void;

  constructor(db: Queryable, onError: (err: unknown) => void) {
    this.db = db;
    this.onError = onError;
  }

  /** True when an endpoint was enabled at the last read (or the read failed: events queued). */
  get any(): boolean {
    return this.known;
  }

  async read(): Promise<void> {
    try {
      const [row] = await this.db.query<{ any: boolean }>(
        "SELECT EXISTS (SELECT 1 FROM public.webhook_endpoints WHERE enabled) AS any",
      );
      this.known = row!.any;
    } catch (err) {
      this.known = true; // the statement that stores a lead finds the endpoints itself
      this.onError(err);
    }
  }

  start(refreshMs: number) {
    this.timer ??= setInterval(() => void this.read(), refreshMs);
    this.timer.unref();
  }

  stop() {
    clearInterval(this.timer);
    this.timer = undefined;
  }
}
