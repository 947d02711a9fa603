// The webhook service of the app: keeps LEAD_WEBHOOK_URL's endpoint row, knows whether any
// endpoint is enabled (the lead store queues events only then), runs the delivery worker of this
// instance, and offers the workspace's resend. Events are queued by the lead store.
import type { FastifyInstance } from "fastify";
import fp from "fastify-plugin";
import type { Queryable } from "../db/database.ts";
import { SecretBox } from "../security/secret-box.ts";
import { resendDelivery } from "./deliveries.ts";
import {
  addEndpoint,
  EnabledEndpoints,
  sealPlainSecrets,
  syncEnvEndpoint,
  type EndpointRow,
} from "./endpoints.ts";
import {
  DEFAULT_WEBHOOK_OPTIONS,
  WebhookWorker,
  type WebhookWorkerOptions,
} from "./webhook-worker.ts";

export type Webhooks = {
  /** Whether the lead store should queue events: an endpoint was enabled at the last read. */
  any(): boolean;
  /** Call after a lead was stored: delivers its events now instead of at the next poll. */
  flush(): void;
  /** Reads again whether any endpoint is enabled (after the workspace changed one). */
  refresh(): Promise<void>;
  /**
   * Sends a delivery again (deliveries.ts resendDelivery); false if unknown or on the wire.
   * `also` runs in the same transaction once it is queued again (the audit log's entry).
   */
  resend(deliveryId: string, also?: (tx: Queryable) => Promise<void>): Promise<boolean>;
  /**
   * Adds an endpoint (endpoints.ts addEndpoint): the row, with its secret this once. `also` runs
   * in the same transaction with the row (the audit log's entry).
   */
  add(
    endpoint: Parameters<typeof addEndpoint>[2],
    also?: (tx: Queryable, row: EndpointRow) => Promise<void>,
  ): Promise<EndpointRow & { secret: string }>;
  worker: WebhookWorker;
};

declare module "fastify" {
  interface FastifyInstance {
    webhooks: Webhooks;
  }
}

export type WebhooksOptions = {
  worker?: Partial<WebhookWorkerOptions>;
  /** How often each instance on PostgreSQL reads whether any endpoint is enabled. */
  endpointsRefreshMs?: number;
};

export default fp(
  async function webhooks(app: FastifyInstance, opts: WebhooksOptions) {
    const secrets = new SecretBox(app.keys.derive("webhook-endpoint-secrets"));
    await syncEnvEndpoint(app.db, secrets, app.config.leadWebhook);
    await sealPlainSecrets(app.db, secrets);
    const log = app.log.child({ module: "webhooks" });
    const endpoints = new EnabledEndpoints(app.db, (err) =>
      log.warn({ err }, "could not read whether webhook endpoints are enabled; will read again"),
    );
    await endpoints.read();
    const worker = new WebhookWorker(app.db, log, secrets, {
      ...DEFAULT_WEBHOOK_OPTIONS,
      leaseMs: app.config.webhookLeaseMs,
      allowPrivateAddresses: app.config.webhookAllowPrivateAddresses,
      ...opts.worker,
    });
    app.decorate("webhooks", {
      any: () => endpoints.any,
      // Without an enabled endpoint no event was queued: no lane is woken to look for one.
      flush: () => {
        if (endpoints.any) worker.kick();
      },
      refresh: () => endpoints.read(),
      add: (endpoint, also) =>
        app.db.transaction(async (tx) => {
          const row = await addEndpoint(tx, secrets, endpoint);
          await also?.(tx, row);
          return row;
        }),
      async resend(id, also) {
        const queued = await app.db.transaction(async (tx) => {
          const resent = await resendDelivery(tx, id);
          if (resent) await also?.(tx);
          return resent;
        });
        if (queued) worker.kick();
        return queued;
      },
      worker,
    } satisfies Webhooks);
    app.addHook("onReady", async () => {
      // Only instances sharing a PostgreSQL server change each other's endpoints. The embedded
      // database belongs to this process alone (its folder is locked), whose own changes refresh
      // at once: polling it would only cost the idle server a query a second.
      if (app.db.kind === "postgres") endpoints.start(opts.endpointsRefreshMs ?? 1_000);
      worker.start();
    });
    app.addHook("onClose", async () => {
      endpoints.stop();
      await worker.stop();
    });
  },
  { name: "webhooks", dependencies: ["services"] },
);
