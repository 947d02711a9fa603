// Liveness and readiness, for a load balancer and a process supervisor, and the drain at shutdown.
//   GET /livez   200 while the process serves HTTP at all; never asks the database, so a database
//                blip does not get every instance restarted.
//   GET /readyz  200 when this instance should get traffic: not draining, and the database
//                answers; 503 otherwise, so the balancer sends requests to the other instances.
// Draining (server.ts, on SIGTERM) turns readiness to 503 while requests are still served, and
// every response from then on closes its connection, so keep-alive clients reconnect elsewhere.
import type { FastifyInstance, FastifyReply } from "fastify";
import fp from "fastify-plugin";
import { RETRY_AFTER_SECONDS } from "../http/fastify-errors.ts";

export type Readiness = {
  readonly draining: boolean;
  /** Readiness answers 503 from now on, and responses close their connections. */
  drain(): void;
};

declare module "fastify" {
  interface FastifyInstance {
    readiness: Readiness;
  }
}

/** The longest /readyz waits for the database before it calls it unreachable. */
const DATABASE_PROBE_MS = 2000;

export default fp(
  async function readiness(app: FastifyInstance) {
    let draining = false;
    app.decorate("readiness", {
      get draining() {
        return draining;
      },
      drain() {
        draining = true;
      },
    } satisfies Readiness);

    app.addHook("onSend", async (_request, reply) => {
      if (draining) reply.header("connection", "close");
    });

    const status = (reply: FastifyReply, state: "ready" | "draining" | "database unavailable") => {
      reply.header("cache-control", "no-store");
      if (state !== "ready") reply.code(503).header("retry-after", String(RETRY_AFTER_SECONDS));
      return reply.send({ status: state });
    };

    app.get("/livez", async (_request, reply) =>
      reply.header("cache-control", "no-store").send({ status: "alive" }),
    );
    app.get("/readyz", async (request, reply) => {
      if (draining) return status(reply, "draining");
      try {
        await probe(app);
      } catch (err) {
        request.log.warn({ err }, "readiness: the database did not answer");
        return status(reply, "database unavailable");
      }
      return status(reply, "ready");
    });
  },
  { name: "readiness", dependencies: ["services"] },
);

function probe(app: FastifyInstance): Promise<unknown> {
  let timer: NodeJS.Timeout | undefined;
  return Promise.race([
    app.db.query("SELECT 1"),
    new Promise((_, reject) => {
      timer = setTimeout(() => reject(new Error("no answer in time")), DATABASE_PROBE_MS);
    }),
  ]).finally(() => clearTimeout(timer));
}
