// Delivers webhook events (deliveries.ts), each once at a time across every instance:
// - each lane claims one delivery (a token and a lease, SKIP LOCKED), holds the lease while the
//   endpoint answers, and records the outcome only under its own token (queue/outbox-worker.ts);
// - the event is POSTed signed as Standard Webhooks sign (webhook-id: the delivery's id, the
//   same on every attempt; webhook-timestamp: now; webhook-signature: HMAC-SHA256 of
//   "id.timestamp.body" under the endpoint's secret);
// - a 2xx delivers it; a network error, a timeout or any other status retries it with
//   exponential backoff (never sooner than a Retry-After the endpoint sent, up to an hour),
//   maxAttempts times, then marks it failed. Each endpoint is its own peer: one endpoint down
//   postpones only its own deliveries. Attempts, the last status and error are kept on the row;
// - stop() claims nothing more, lets the requests in flight finish, and after a grace period
//   aborts them and releases their deliveries (attempt not counted) for another instance.
// What remains at least once: an instance killed (or cut off from the database for a lease)
// after the endpoint answered 2xx and before the database recorded it; the event is then sent
// again after the lease with the same webhook-id, which a receiver can drop.
import type { FastifyBaseLogger } from "fastify";
import type { Database } from "../db/database.ts";
import { retryDelayMs } from "../mail/delivery-worker.ts";
import { errorText } from "../mail/failures.ts";
import { codesOf, connectionFailure } from "../platform/connection-failures.ts";
import type { Lease } from "../queue/lease.ts";
import { OutboxWorker, type LaneOptions } from "../queue/outbox-worker.ts";
import type { SecretBox } from "../security/secret-box.ts";
import { signWebhook } from "../security/standard-webhooks.ts";
import { deliveryClaims, type ClaimedDelivery, type Delivery } from "./deliveries.ts";
import { ENV_ENDPOINT_ID, openSecret } from "./endpoints.ts";
import { postEvent } from "./http-post.ts";
import { PrivateAddressError } from "./public-address.ts";

export type WebhookWorkerOptions = LaneOptions & {
  /** First retry delay; doubles up to maxDelayMs. */
  retryBaseMs: number;
  maxDelayMs: number;
  /** The longest Retry-After honoured (a longer one waits this long). */
  maxRetryAfterMs: number;
  /** Attempts after which a delivery is marked failed. */
  maxAttempts: number;
  /** How long an endpoint has to answer. */
  timeoutMs: number;
  /** Whether admins' endpoints may be on private addresses (LEAD_WEBHOOK_URL always may). */
  allowPrivateAddresses: boolean;
};

export const DEFAULT_WEBHOOK_OPTIONS: WebhookWorkerOptions = {
  pollMs: 5_000,
  retryBaseMs: 5_000,
  maxDelayMs: 3_600_000,
  maxRetryAfterMs: 3_600_000,
  maxAttempts: 24, // about 16 hours of retries
  concurrency: 4,
  leaseMs: 60_000,
  timeoutMs: 15_000,
  stopGraceMs: 5_000,
  allowPrivateAddresses: false,
};

/** A Retry-After header (seconds or an HTTP date) in milliseconds from now, if it reads as one. */
export function retryAfterMs(value: string | null, now = Date.now()): number | undefined {
  if (!value) return undefined;
  if (/^\d+$/.test(value.trim())) return Number(value.trim()) * 1000;
  const at = Date.parse(value);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}

/**
 * What an attempt came to: the endpoint's status (if it answered) and, unless 2xx, why not: as
 * the workspace's delivery log says it, and in full for the server's log.
 */
type Outcome = { status?: number; error?: string; detail?: string; retryAfterMs?: number };

/**
 * What the delivery log in the workspace says of a failed attempt: the kind of failure, never the
 * address connected to, nor whether a name resolved (to a private address) or did not.
 */
export function shownFailure(err: unknown): string {
  // The URL itself names this host: saying so tells nothing more.
  if (err instanceof PrivateAddressError && !err.resolved) return err.message;
  const [code] = codesOf(err);
  return (
    connectionFailure(err, "the endpoint") ??
    (code ? `could not deliver (${code})` : "could not deliver")
  );
}

export class WebhookWorker extends OutboxWorker<Delivery> {
  private readonly opts: WebhookWorkerOptions;
  private readonly secrets: SecretBox;

  constructor(
    db: Database,
    log: FastifyBaseLogger,
    secrets: SecretBox,
    opts: WebhookWorkerOptions,
  ) {
    super(db, deliveryClaims, log, opts);
    this.secrets = secrets;
    this.opts = opts;
  }

  protected async deliver(claim: ClaimedDelivery, lease: Lease) {
    const entry = { id: claim.id, endpoint: claim.endpoint_id, attempts: claim.attempts };
    if (claim.expired_claim)
      this.log.warn(entry, "sending an event whose claim expired unreleased: it may arrive twice");
    const outcome = await this.post(claim, lease.signal);
    try {
      if (outcome.error === undefined) {
        if (await deliveryClaims.done(this.db, claim, outcome.status))
          this.log.info({ ...entry, status: outcome.status }, "webhook delivered");
        else
          this.log.error(entry, "event delivered after its claim passed on: it may arrive twice");
      } else if (lease.signal.aborted) {
        const reason = errorText(lease.signal.reason);
        this.log.warn({ ...entry, reason }, "webhook aborted; released for another attempt");
        await this.release(claim, { kind: "unsent", error: `aborted: ${reason}` });
      } else {
        await this.retryLater(claim, { ...outcome, error: outcome.error });
      }
    } catch (err) {
      // The database failed recording the outcome: the lease runs out and the event goes again.
      this.log.error({ ...entry, err }, "could not record a webhook's outcome; it is sent again");
    }
  }

  /** One signed POST of the event; never throws. */
  private async post(claim: ClaimedDelivery, leaseSignal: AbortSignal): Promise<Outcome> {
    const body = JSON.stringify(claim.payload);
    const timestamp = Math.floor(Date.now() / 1000);
    let secret: string;
    try {
      secret = openSecret(this.secrets, claim.secret);
    } catch {
      return { error: "the endpoint's secret was sealed under another JWT_SECRET: add it again" };
    }
    try {
      const answer = await postEvent(claim.url, {
        headers: {
          "content-type": "application/json",
          "user-agent": "Revwise-Webhooks/1",
          "webhook-id": claim.id,
          "webhook-timestamp": String(timestamp),
          "webhook-signature": signWebhook([secret], claim.id, timestamp, body),
        },
        body,
        signal: AbortSignal.any([leaseSignal, AbortSignal.timeout(this.opts.timeoutMs)]),
        // The operator's own endpoint may be anywhere; an admin's only on a public address.
        publicOnly: !this.opts.allowPrivateAddresses && claim.endpoint_id !== ENV_ENDPOINT_ID,
      });
      if (answer.status >= 200 && answer.status < 300) return { status: answer.status };
      return {
        status: answer.status,
        error: `HTTP ${answer.status}`,
        retryAfterMs: retryAfterMs(answer.retryAfter),
      };
    } catch (err) {
      const cause = (err as { cause?: unknown }).cause;
      return { error: shownFailure(err), detail: errorText(cause ?? err) };
    }
  }

  private async retryLater(claim: ClaimedDelivery, outcome: Outcome & { error: string }) {
    const giveUp = claim.attempts >= this.opts.maxAttempts;
    const delayMs = Math.max(
      retryDelayMs(claim.attempts, this.opts),
      Math.min(outcome.retryAfterMs ?? 0, this.opts.maxRetryAfterMs),
    );
    const entry = { id: claim.id, attempts: claim.attempts, err: outcome.detail ?? outcome.error };
    if (giveUp) this.log.error(entry, "webhook failed too often; kept as failed");
    else this.log.warn({ ...entry, retryInMs: delayMs }, "webhook not delivered; will retry");
    await this.release(
      claim,
      { kind: "retry", error: outcome.error, delayMs, giveUp },
      outcome.status,
    );
    // Wake up when the retry is due, if that is sooner than the next poll.
    if (!giveUp && delayMs < this.opts.pollMs) setTimeout(() => this.kick(), delayMs + 5).unref();
  }
}
