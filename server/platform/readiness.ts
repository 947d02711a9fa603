// Liveness and readiness, for a load balancer and a process supervisor, and the drain at shutdown.
//   GET /livez   200 while the process serves HTTP at all; never asks the database, so a database
//                blip does not get every instance restarted.
//   GET /readyz  200 when this instance should get traffic: not draining, and the database
//                answers; 503 otherwise, so the balancer sends requests to the other instances.
// Draining (server.ts, on SIGTERM) turns readiness to 503 while requests are still served, and
// every response from then on closes its connection, so keep-alive clients reconnect elsewhere.
import type { FastifyBaseLogger, FastifyInstance, FastifyReply } from "fastify";
import fp from "fastify-plugin";
import { RETRY_AFTER_SECONDS } from "../http/fastify-errors.ts";

export type ReadinessState = "ready" | "draining" | "database unavailable";

export type Readiness = {
  readonly draining: boolean;
  /** What /readyz answers now (the database asked, unless draining); a failure is told to `log`. */
  check(log?: FastifyBaseLogger): Promise<ReadinessState>;
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
    const check = async (log = app.log): Promise<ReadinessState> => {
      if (draining) return "draining";
      try {
        await probe(app);
        return "ready";
      } catch (err) {
        log.warn({ err }, "readiness: the database did not answer");
        return "database unavailable";
      }
    };
    app.decorate("readiness", {
      get draining() {
        return draining;
      },
      check,
      drain() {
        draining = true;
      },
    } satisfies Readiness);

    // A callback hook: it runs on every answer, and an async one costs a promise each time.
    app.addHook("onSend", (_request, reply, payload, done) => {
      if (draining) reply.header("connection", "close");
      done(null, payload);
    });

    const status = (reply: FastifyReply, state: ReadinessState) => {
      reply.header("cache-control", "no-store");
      if (state !== "ready") reply.code(503).header("retry-after", String(RETRY_AFTER_SECONDS));
      return reply.send({ status: state });
    };

    app.get("/livez", async (_request, reply) =>
      reply.header("cache-control", "no-store").send({ status: "alive" }),
    );
    app.get("/readyz", async (request, reply) => status(reply, await check(request.log)));
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
