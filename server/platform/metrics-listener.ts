// Prometheus's /metrics on a listener of its own (METRICS_HOST:METRICS_PORT), never on the public
// port: what it tells (queues, failure rates) is for the operator. Off unless METRICS_PORT is set;
// then requests' durations are observed too (request-durations.ts), and nothing of it runs on the
// request path otherwise. A scrape first reads what lives in the database (the queues, the
// digests: the readers app.ts gives, each a cheap indexed statement), readiness and Redis, then
// answers every metric of metrics/metrics.ts in the text format.
import type { FastifyInstance } from "fastify";
import fp from "fastify-plugin";
import http from "node:http";
import type { AddressInfo } from "node:net";
import type { Database } from "../db/database.ts";
import {
  collectProcessMetrics,
  poolWaiting,
  ready,
  redisUp,
  registry,
} from "../metrics/metrics.ts";

/** Sets the gauges of what lives in the database; a failure leaves them as they were. */
export type ScrapeReader = { what: string; read: (db: Database) => Promise<void> };

declare module "fastify" {
  interface FastifyInstance {
    /** The URL Prometheus scrapes, when METRICS_PORT is set. */
    metricsUrl: string | undefined;
  }
}

/** The longest a scrape waits for the database's answers before it answers without them. */
const READ_TIMEOUT_MS = 2000;

export default fp(
  async function metricsListener(app: FastifyInstance, opts: { readers: ScrapeReader[] }) {
    const where = app.config.metrics;
    if (!where) {
      app.decorate("metricsUrl", undefined);
      return;
    }
    collectProcessMetrics();
    const log = app.log.child({ module: "metrics" });

    const readAll = async () => {
      poolWaiting.set(app.db.waiting?.() ?? 0);
      const reads = [
        app.readiness.check(log).then((state) => ready.set(state === "ready" ? 1 : 0)),
        ...(app.redis
          ? [
              app.redis.ping().then(
                () => redisUp.set({ store: "redis" }, 1),
                () => redisUp.set({ store: "redis" }, 0),
              ),
            ]
          : []),
        ...opts.readers.map(({ what, read }) =>
          read(app.db).catch((err: unknown) =>
            log.warn({ err }, `metrics: could not read ${what}`),
          ),
        ),
      ];
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([
        Promise.all(reads),
        new Promise((resolve) => (timer = setTimeout(resolve, READ_TIMEOUT_MS))),
      ]).finally(() => clearTimeout(timer));
    };

    const server = http.createServer((req, res) => {
      const path = (req.url ?? "").split("?")[0];
      if (path !== "/metrics" || (req.method !== "GET" && req.method !== "HEAD")) {
        res.writeHead(404, { "content-type": "text/plain" }).end("Not found: scrape /metrics\n");
        return;
      }
      readAll()
        .then(() => registry.metrics())
        .then(
          (text) => {
            res.writeHead(200, {
              "content-type": registry.contentType,
              "cache-control": "no-store",
            });
            res.end(req.method === "HEAD" ? undefined : text);
          },
          (err: unknown) => {
            log.error({ err }, "metrics: could not gather the metrics");
            res.writeHead(500, { "content-type": "text/plain" }).end("metrics failed\n");
          },
        );
    });
    await new Promise<void>((resolve, reject) => {
      server.once("error", (err) =>
        reject(
          new Error(
            `metrics cannot listen on ${where.host}:${where.port} (METRICS_HOST, METRICS_PORT): ${err.message}`,
          ),
        ),
      );
      server.listen(where.port, where.host, () => {
        server.removeAllListeners("error");
        resolve();
      });
    });
    const { address, port } = server.address() as AddressInfo;
    const url = `http://${address.includes(":") ? `[${address}]` : address}:${port}/metrics`;
    app.decorate("metricsUrl", url);
    app.log.info(`metrics are served at ${url}`);
    app.addHook("onClose", async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    });
  },
  { name: "metrics", dependencies: ["services", "readiness", "redis"] },
);
