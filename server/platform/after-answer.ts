// Work a request starts and does not wait for: it runs once the answer is on its way, so the
// answer's time does not depend on it (whether an address has an account, say). The server waits
// for all of it before closing, so a SIGTERM loses none; a failure is logged.
import type { FastifyInstance, FastifyRequest } from "fastify";
import fp from "fastify-plugin";

declare module "fastify" {
  interface FastifyInstance {
    /** Runs `work` after the request's answer (`what` names it in the log if it fails). */
    afterAnswer(request: FastifyRequest, what: string, work: () => Promise<void>): void;
  }
}

export default fp(
  async function afterAnswer(app: FastifyInstance) {
    const running = new Set<Promise<void>>();
    app.decorate(
      "afterAnswer",
      (request: FastifyRequest, what: string, work: () => Promise<void>) => {
        const done: Promise<void> = new Promise<void>((resolve) => setImmediate(resolve))
          .then(work)
          .catch((err: unknown) => request.log.error({ err }, `${what} failed`))
          .finally(() => running.delete(done));
        running.add(done);
      },
    );
    app.addHook("onClose", async () => {
      await Promise.all([...running]);
    });
  },
  { name: "after-answer" },
);
