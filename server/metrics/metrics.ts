// Every metric the server exports, registered once in one registry at the bottom of the server's
// layers, so the code that counts an event (a sign-in, a delivery, a refusal) imports its counter
// from here and nothing else. Names and labels follow OpenTelemetry's HTTP conventions where they
// apply; the product's own carry the `revwise_` prefix. Counters only go up (`_total`): a restart
// starts them at zero again, which Prometheus's rate() and increase() read as a reset. Gauges that
// describe the database (queues, digests) are set when /metrics is scraped, by the readers the
// metrics listener runs (platform/metrics-listener.ts); nothing here queries anything.
import { Counter, Gauge, Registry } from "prom-client";
import { collectProcessMetrics as collectInto } from "./process-metrics.ts";
import { RequestDurationHistogram } from "./request-duration-histogram.ts";

export const registry = new Registry();

let processMetrics = false;
/** Node's process and event-loop metrics, collected from the first call on (metrics turned on). */
export function collectProcessMetrics() {
  if (processMetrics) return;
  processMetrics = true;
  collectInto(registry, 20);
}

const counter = <L extends string>(name: string, help: string, labelNames: readonly L[]) =>
  new Counter<L>({ name, help, labelNames, registers: [registry] });
const gauge = <L extends string>(name: string, help: string, labelNames: readonly L[] = []) =>
  new Gauge<L>({ name, help, labelNames, registers: [registry] });

/** OpenTelemetry's http.server.request.duration, in seconds, with its recommended buckets. */
export const requestDuration = new RequestDurationHistogram({
  name: "http_server_request_duration_seconds",
  help: "Duration of HTTP server requests, by method, route template and status code",
  buckets: [0.005, 0.01, 0.025, 0.05, 0.075, 0.1, 0.25, 0.5, 0.75, 1, 2.5, 5, 7.5, 10],
});
registry.registerMetric(requestDuration.asRegistryMetric());

/** What a queue (the mail outbox, the webhook deliveries) is called in the labels. */
export type QueueName = "email" | "webhook";

export const queuedItems = gauge(
  "revwise_queue_items",
  "Emails and webhook deliveries not yet delivered nor failed, by state (due, scheduled, sending)",
  ["queue", "state"],
);
export const queueOldestAge = gauge(
  "revwise_queue_oldest_waiting_seconds",
  "Age of the oldest email or webhook delivery not yet delivered nor failed (0: none waiting)",
  ["queue"],
);
export const deliveries = counter(
  "revwise_deliveries_total",
  "Delivery attempts of emails and webhooks by outcome (delivered, retry, failed)",
  ["queue", "outcome"],
);
export const digestsDue = gauge(
  "revwise_lead_digests_due",
  "Lead digest kinds whose interval has passed (the next run queues one if it has leads)",
);
export const signIns = counter(
  "revwise_auth_sign_ins_total",
  "Sign-ins (token grants) by method and outcome",
  ["method", "outcome"],
);
export const verifications = counter(
  "revwise_auth_verifications_total",
  "Verifications of emailed links and emailed or texted codes, by method and outcome",
  ["method", "outcome"],
);
export const mfaChallenges = counter(
  "revwise_auth_mfa_challenges_total",
  "MFA challenges issued, by factor type",
  ["factor_type"],
);
export const mfaVerifications = counter(
  "revwise_auth_mfa_verifications_total",
  "MFA challenge answers by factor type and outcome",
  ["factor_type", "outcome"],
);
export const rateLimitRefusals = counter(
  "revwise_rate_limit_refusals_total",
  "Requests refused by a rate limit, by limit",
  ["limit"],
);
export const leadsStored = counter("revwise_leads_stored_total", "Leads stored, by form", ["form"]);
export const poolWaits = counter(
  "revwise_db_pool_waits_total",
  "Database statements that waited for a free connection of the pool (PostgreSQL)",
  [],
);
export const poolWaiting = gauge(
  "revwise_db_pool_waiting",
  "Statements waiting for a free connection of the pool now (PostgreSQL)",
);
/** Set only with REDIS_URL (`store="redis"`), so an instance without Redis has no series. */
export const redisUp = gauge(
  "revwise_redis_up",
  "Whether the shared Redis answers (1) or not (0); no series without REDIS_URL",
  ["store"],
);
export const ready = gauge(
  "revwise_ready",
  "Whether this instance should get traffic (1: not draining and the database answers), as /readyz",
);

/**
 * Counts `work` once it settles, under `labels` and its outcome: success when it resolves,
 * failure when it throws (the error goes on to the caller).
 */
export async function countOutcome<L extends string, T>(
  metric: Counter<L | "outcome">,
  labels: Partial<Record<L, string>>,
  work: Promise<T>,
): Promise<T> {
  const count = (outcome: "success" | "failure") =>
    metric.inc({ ...labels, outcome } as Partial<Record<L | "outcome", string>>);
  try {
    const value = await work;
    count("success");
    return value;
  } catch (err) {
    count("failure");
    throw err;
  }
}
