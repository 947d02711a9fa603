// The mail service of the app: enqueue in a transaction, then nudge the worker after commit.
import type { FastifyInstance } from "fastify";
import fp from "fastify-plugin";
import type { Queryable } from "../db/database.ts";
import { DEFAULT_WORKER_OPTIONS, DeliveryWorker, type WorkerOptions } from "./delivery-worker.ts";
import { enqueue, type Email } from "./outbox.ts";
import { mailboxTransport, smtpTransport, type MailTransport } from "./transport.ts";

export type Mailer = {
  /** Writes the emails in the caller's transaction. */
  enqueue(q: Queryable, ...emails: Email[]): Promise<void>;
  /** Call after the transaction committed: delivers now instead of at the next poll. */
  flush(): void;
  /** The worker, when this instance delivers (SMTP configured, or the dev mailbox). */
  worker: DeliveryWorker | undefined;
};

declare module "fastify" {
  interface FastifyInstance {
    mailer: Mailer;
  }
}

export type MailerOptions = { worker?: Partial<WorkerOptions>; transport?: MailTransport };

export default fp(
  async function mailer(app: FastifyInstance, opts: MailerOptions) {
    const { config } = app;
    const workerOptions: WorkerOptions = {
      ...DEFAULT_WORKER_OPTIONS,
      concurrency: config.smtpPoolSize,
      probeMs: config.smtpProbeMs,
      leaseMs: config.mailLeaseMs,
      ...opts.worker,
    };
    const transport =
      opts.transport ??
      (config.smtpUrl
        ? await smtpTransport(config.smtpUrl, config.mailFrom, {
            connections: workerOptions.concurrency,
          })
        : config.devMailbox
          ? mailboxTransport()
          : undefined);
    const worker = transport
      ? new DeliveryWorker(app.db, transport, app.log.child({ module: "mail" }), workerOptions)
      : undefined;
    if (!transport) {
      app.log.warn(
        "SMTP_URL is not set: emails are kept in mail.outbox and delivered once SMTP is configured",
      );
    }
    app.decorate("mailer", {
      async enqueue(q, ...emails) {
        for (const email of emails) await enqueue(q, email);
      },
      flush: () => worker?.kick(),
      worker,
    } satisfies Mailer);
    if (worker) {
      app.addHook("onReady", async () => worker.start());
      app.addHook("onClose", async () => worker.stop());
    }
  },
  { name: "mailer", dependencies: ["services"] },
);
