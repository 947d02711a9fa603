// Work a request starts and does not wait for: it runs once the answer is on its way, so the
// answer's time does not depend on it (whether an address has an account, say). The server waits
// for all of it before closing, so a SIGTERM loses none; a failure is logged.
import type { FastifyInstance, FastifyRequest } from "fastify";
import fp from "fastify-plugin";

declare module "fastify" {
  interface FastifyInstance {
    afterAnswer: AfterAnswer;
  }
}

class AfterAnswer {
  readonly #running = new Set<Promise<void>>();

  /** Runs `work` after the request's answer (`what` names it in the log if it fails). */
  run(request: FastifyRequest, what: string, work: () => Promise<void>): void {
    const done: Promise<void> = new Promise<void>((resolve) => setImmediate(resolve))
      .then(work)
      .catch((err: unknown) => request.log.error({ err }, `${what} failed`))
      .finally(() => this.#running.delete(done));
    this.#running.add(done);
  }

  /** Resolves once no such work is running (what was started meanwhile included). */
  async idle(): Promise<void> {
    while (this.#running.size > 0) await Promise.all([...this.#running]);
  }
}

export default fp(
  async function afterAnswer(app: FastifyInstance) {
    const work = new AfterAnswer();
    app.decorate("afterAnswer", work);
    app.addHook("onClose", () => work.idle());
  },
  { name: "after-answer" },
);
