// The webhook service of the app: keeps LEAD_WEBHOOK_URL's endpoint row, runs the delivery worker
// of this instance, and offers the workspace's resend. Events are queued by the lead store.
import type { FastifyInstance } from "fastify";
import fp from "fastify-plugin";
import { resendDelivery } from "./deliveries.ts";
import { syncEnvEndpoint } from "./endpoints.ts";
import {
  DEFAULT_WEBHOOK_OPTIONS,
  WebhookWorker,
  type WebhookWorkerOptions,
} from "./webhook-worker.ts";

export type Webhooks = {
  /** Call after a lead was stored: delivers its events now instead of at the next poll. */
  flush(): void;
  /** Sends a delivery again (deliveries.ts resendDelivery); false if unknown or on the wire. */
  resend(deliveryId: string): Promise<boolean>;
  worker: WebhookWorker;
};

declare module "fastify" {
  interface FastifyInstance {
    webhooks: Webhooks;
  }
}

export type WebhooksOptions = { worker?: Partial<WebhookWorkerOptions> };

export default fp(
  async function webhooks(app: FastifyInstance, opts: WebhooksOptions) {
    await syncEnvEndpoint(app.db, app.config.leadWebhook);
    const worker = new WebhookWorker(app.db, app.log.child({ module: "webhooks" }), {
      ...DEFAULT_WEBHOOK_OPTIONS,
      ...opts.worker,
    });
    app.decorate("webhooks", {
      flush: () => worker.kick(),
      async resend(id) {
        const queued = await resendDelivery(app.db, id);
        if (queued) worker.kick();
        return queued;
      },
      worker,
    } satisfies Webhooks);
    app.addHook("onReady", async () => worker.start());
    app.addHook("onClose", async () => worker.stop());
  },
  { name: "webhooks", dependencies: ["services"] },
);
