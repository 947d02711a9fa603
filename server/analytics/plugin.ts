// Counts the pages the site serves (page-views.ts), writing the counts every few seconds and once
// more when the server closes. Each client address's budget of counted views is shared by the
// instances through Redis when REDIS_URL is set. Counting never delays or fails a page: it happens after the answer
// is sent, and a write that fails is logged and dropped.
import type { FastifyInstance, FastifyRequest } from "fastify";
import fp from "fastify-plugin";
import { redisFailureLog } from "../platform/redis.ts";
import { bucketStore } from "../platform/token-bucket.ts";
import { PageViews, type ViewRequest } from "./page-views.ts";

declare module "fastify" {
  interface FastifyInstance {
    pageViews: {
      record(request: ViewRequest, path: string): void;
      /**
       * A lead was stored from this request, sent from the page `path`: tied to its visitor's
       * visit, if counted.
       */
      converted(request: FastifyRequest, lead: { id: string; path?: string }): void;
    };
  }
}

const FLUSH_INTERVAL_MS = 5000;

export default fp(
  async function pageAnalytics(app: FastifyInstance, opts: { flushMs?: number }) {
    const views = new PageViews(app.db, app.config.siteUrl, {
      budget: bucketStore(
        app.redis,
        `revwise-pv-rl:${app.config.siteUrl}:`,
        redisFailureLog(app.log, "page-view budgets"),
      ),
    });
    const failed = (err: unknown) =>
      app.log.warn({ err: (err as Error).message }, "page analytics: counts dropped");
    const timer = setInterval(
      () => void views.flush().catch(failed),
      opts.flushMs ?? FLUSH_INTERVAL_MS,
    );
    timer.unref();
    app.addHook("onClose", async () => {
      clearInterval(timer);
      await views.flush().catch(failed);
    });
    app.decorate("pageViews", {
      record: (request: ViewRequest, path: string) => views.record(request, path),
      converted: (request: FastifyRequest, lead: { id: string; path?: string }) =>
        views.converted(request, lead),
    });
  },
  { name: "page-analytics", dependencies: ["services", "redis"] },
);
