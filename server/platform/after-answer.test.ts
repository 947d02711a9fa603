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
  app.post("/work", async (request) => {
    app.afterAnswer.run(request, "slow work", async () => {
      await new Promise((resolve) => setTimeout(resolve, 300));
      finished++;
    });
    app.afterAnswer.run(request, "failing work", async () => {
      throw new Error("no luck");
    });
    return {};
  });
  const started = performance.now();
  const res = await app.inject({ method: "POST", url: "/work" });
  expect(res.statusCode).toBe(200);
  expect(performance.now() - started).toBeLessThan(250);
  expect(finished).toBe(0);
  await app.close();
  expect(finished).toBe(1);
  expect(logged.join("")).toMatch(/"msg":"failing work failed"/);
});
