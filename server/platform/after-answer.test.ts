// Work started after the answer: the answer does not wait for it, closing the server does, and a
// failure is logged, not thrown at anyone.
import Fastify from "fastify";
import { expect, it } from "vitest";
import afterAnswer from "./after-answer.ts";

it("answers before the work is done, and closes only once it is", async () => {
  const logged: string[] = [];
  const app = Fastify({
    logger: { level: "error", stream: { write: (line: string) => void logged.push(line) } },
  });
  await app.register(afterAnswer);
  let finished = 0;
  // The slow work cannot end before the test lets it, and then takes one more turn of the loop.
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  const turn = () => new Promise((resolve) => setImmediate(resolve));
  app.post("/work", async (request) => {
    app.afterAnswer.run(request, "slow work", async () => {
      await held;
      await turn();
      finished++;
    });
    app.afterAnswer.run(request, "failing work", async () => {
      throw new Error("no luck");
    });
    return {};
  });
  const res = await app.inject({ method: "POST", url: "/work" });
  expect(res.statusCode).toBe(200);
  expect(finished).toBe(0);
  let closed = false;
  const closing = app.close().then(() => (closed = true));
  for (let i = 0; i < 5; i++) await turn();
  expect(closed).toBe(false);
  release();
  await closing;
  expect(finished).toBe(1);
  expect(logged.join("")).toMatch(/"msg":"failing work failed"/);
});
