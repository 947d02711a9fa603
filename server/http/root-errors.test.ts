// Refusals outside the API prefixes carry the reason phrase of their own status, not "Bad Request".
import Fastify from "fastify";
import { afterAll, beforeAll, expect, it } from "vitest";
import { rootErrorHandler } from "./root-errors.ts";

const app = Fastify({ bodyLimit: 100 });

beforeAll(async () => {
  app.setErrorHandler(rootErrorHandler);
  app.post("/echo", async (request) => request.body);
  app.get("/busy", async () => {
    throw Object.assign(new Error("Rate limit exceeded, retry in 1 minute"), { statusCode: 429 });
  });
  await app.ready();
});
afterAll(() => app.close());

it.each([
  [
    "a body over the limit",
    { method: "POST", url: "/echo", payload: { pad: "x".repeat(200) } },
    { statusCode: 413, error: "Payload Too Large", message: "Request body too large" },
  ],
  [
    "a body in a type no parser reads",
    { method: "POST", url: "/echo", headers: { "content-type": "text/xml" }, payload: "<a/>" },
    { statusCode: 415, error: "Unsupported Media Type", message: "Unsupported content type" },
  ],
  [
    "a rate limit",
    { method: "GET", url: "/busy" },
    { statusCode: 429, error: "Too Many Requests", message: "Too many requests" },
  ],
  [
    "a body that is not JSON",
    { method: "POST", url: "/echo", headers: { "content-type": "application/json" }, payload: "{" },
    { statusCode: 400, error: "Bad Request" },
  ],
] as const)("answers %s with its status's reason phrase", async (_what, request, answer) => {
  const res = await app.inject(request);
  expect(res.statusCode).toBe(answer.statusCode);
  expect(res.json()).toMatchObject(answer);
});
