// The endpoints events go to (public.webhook_endpoints). Admins manage their rows in the workspace;
// the operator's LEAD_WEBHOOK_URL is kept in the row with a fixed id, written at start, so
// its events get the same guarantees as any endpoint's (queued with the lead, claimed, retried).
// Secrets are stored sealed (security/secret-box.ts); the delivery worker opens them.
import type { LeadWebhook } from "../config.ts";
import type { Queryable } from "../db/database.ts";
import { isSealed, type SecretBox } from "../security/secret-box.ts";

/** The id of the row that holds LEAD_WEBHOOK_URL and LEAD_WEBHOOK_SECRET. */
export const ENV_ENDPOINT_ID = "00000000-0000-4000-8000-00000000e4e0";

/**
 * Writes the environment's endpoint: its URL and secret, enabled; or, with none configured, the
 * row (if any) disabled. A disabled endpoint gets no new events and its waiting deliveries wait
 * until it is enabled again. Every instance must be given the same values; a row that already
 * holds them is left as it is (sealing again would only change its IV).
 */
export async function syncEnvEndpoint(
  db: Queryable,
  box: SecretBox,
  hook: LeadWebhook | undefined,
) {
  if (hook) {
    const [row] = await db.query<{ url: string; secret: string; enabled: boolean }>(
      "SELECT url, secret, enabled FROM public.webhook_endpoints WHERE id = $1",
      [ENV_ENDPOINT_ID],
    );
    if (row?.enabled && row.url === hook.url && holds(box, row.secret, hook.secret)) return;
    await db.query(
      `INSERT INTO public.webhook_endpoints (id, url, secret, description, enabled)
       VALUES ($1, $2, $3, 'LEAD_WEBHOOK_URL', true)
       ON CONFLICT (id) DO UPDATE SET url = EXCLUDED.url, secret = EXCLUDED.secret, enabled = true`,
      [ENV_ENDPOINT_ID, hook.url, box.seal(hook.secret)],
    );
  } else {
    await db.query(
      "UPDATE public.webhook_endpoints SET enabled = false WHERE id = $1 AND enabled",
      [ENV_ENDPOINT_ID],
    );
  }
}

/**
 * Seals the secrets stored in plain (written before secrets were sealed, or by hand); each row
 * only if it still holds the value read, so instances starting together each seal it once.
 */
export async function sealPlainSecrets(db: Queryable, box: SecretBox): Promise<void> {
  const rows = await db.query<{ id: string; secret: string }>(
    "/* whole table: a handful of endpoints, read once at start */ SELECT id, secret FROM public.webhook_endpoints",
  );
  for (const { id, secret } of rows)
    if (!isSealed(secret))
      await db.query(
        "UPDATE public.webhook_endpoints SET secret = $3 WHERE id = $1 AND secret = $2",
        [id, secret, box.seal(secret)],
      );
}

/** Whether a stored secret is `secret` (one sealed under another JWT_SECRET is not). */
function holds(box: SecretBox, stored: string, secret: string): boolean {
  try {
    return openSecret(box, stored) === secret;
  } catch {
    return false;
  }
}

/** The secret a delivery is signed with, from its stored value (sealed, or plain from before). */
export function openSecret(box: SecretBox, stored: string): string {
  return isSealed(stored) ? box.open(stored) : stored;
}

/**
 * Whether any endpoint is enabled, as last read: read at start (after the environment's endpoint
 * is written), after each change the workspace makes, and, where instances share PostgreSQL,
 * every refreshMs in the background; never on a request. The lead store
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

/**
 * How long after an endpoint is added or enabled its events start: twice the time every instance
 * takes to read that an endpoint is enabled (EnabledEndpoints), so that each lead stored from
 * then on, by whichever instance, queues its event.
 */
const EVENTS_DELAY_SECONDS = 3;

/** An endpoint as the workspace shows it: never its secret, except once, when it is added. */
export type EndpointRow = {
  id: string;
  url: string;
  description: string;
  enabled: boolean;
  created_at: Date;
  created_by: string | null;
  events_from: Date;
  from_environment: boolean;
};

/** The columns of an endpoint anyone on the team may read (never its secret), as SQL. */
export const ENDPOINT_SHOWN = `id, url, description, enabled, created_at, created_by, events_from,
  id = '${ENV_ENDPOINT_ID}' AS from_environment`;

/** Adds an endpoint, its secret sealed; the row with the secret in plain, to show it once. */
export async function addEndpoint(
  db: Queryable,
  box: SecretBox,
  e: { url: string; secret: string; description: string; by: string | undefined },
): Promise<EndpointRow & { secret: string }> {
  const [row] = await db.query<EndpointRow>(
    `INSERT INTO public.webhook_endpoints (url, secret, description, created_by, events_from)
     VALUES ($1, $2, $3, $4, now() + make_interval(secs => $5)) RETURNING ${ENDPOINT_SHOWN}`,
    [e.url, box.seal(e.secret), e.description, e.by ?? null, EVENTS_DELAY_SECONDS],
  );
  return { ...row!, secret: e.secret };
}

export type EndpointChange = { url?: string; description?: string; enabled?: boolean };

/**
 * Changes a workspace endpoint (never the environment's: its values come from the
 * configuration); an endpoint enabled again gets the events of leads stored from a few seconds
 * on. The changed row, or undefined when there is no such endpoint.
 */
export async function changeEndpoint(
  db: Queryable,
  id: string,
  change: EndpointChange,
): Promise<EndpointRow | undefined> {
  const [row] = await db.query<EndpointRow>(
    `UPDATE public.webhook_endpoints SET url = coalesce($2, url),
       description = coalesce($3, description), enabled = coalesce($4, enabled),
       events_from = CASE WHEN NOT enabled AND $4 THEN now() + make_interval(secs => $5)
         ELSE events_from END
     WHERE id = $1 AND id <> '${ENV_ENDPOINT_ID}' RETURNING ${ENDPOINT_SHOWN}`,
    [
      id,
      change.url ?? null,
      change.description ?? null,
      change.enabled ?? null,
      EVENTS_DELAY_SECONDS,
    ],
  );
  return row;
}

/** Deletes a workspace endpoint and its deliveries; the deleted row, or undefined. */
export async function removeEndpoint(db: Queryable, id: string): Promise<EndpointRow | undefined> {
  const [row] = await db.query<EndpointRow>(
    `DELETE FROM public.webhook_endpoints WHERE id = $1 AND id <> '${ENV_ENDPOINT_ID}'
     RETURNING ${ENDPOINT_SHOWN}`,
    [id],
  );
  return row;
}
