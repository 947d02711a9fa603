import Fastify from "fastify";
import { Writable } from "node:stream";
import { describe, expect, it } from "vitest";
import { AccessLog, redactUrl, serializeError } from "./logging.ts";

describe("logging without secrets", () => {
  it("replaces the values of token-carrying query parameters", () => {
    expect(redactUrl("/auth/v1/verify?token=abc123&type=signup&redirect_to=https%3A%2F%2Fx")).toBe(
      "/auth/v1/verify?token=%5Bredacted%5D&type=signup&redirect_to=https%3A%2F%2Fx",
    );
    expect(redactUrl("/rest/v1/x?apikey=eyJ&select=*")).toBe(
      "/rest/v1/x?apikey=%5Bredacted%5D&select=*",
    );
    expect(redactUrl("/faq")).toBe("/faq");
  });

  it("keeps the values the team filters leads by (addresses, names) out of the log", () => {
    expect(
      redactUrl(
        "/rest/v1/leads?select=id,email&email=ilike.*ada%40x.example*&name=not.is.null&or=(name.ilike.*bo*)&order=created_at.desc&limit=50",
      ),
    ).toBe(
      "/rest/v1/leads?select=id%2Cemail&email=ilike.%5Bredacted%5D&name=not.is.%5Bredacted%5D&or=%5Bredacted%5D&order=created_at.desc&limit=50",
    );
    expect(redactUrl("/rest/v1/emails?to_address=eq.a%40b.co")).toBe(
      "/rest/v1/emails?to_address=eq.%5Bredacted%5D",
    );
  });

  it("drops database errors' query and parameters (emails, hashes, tokens)", () => {
    const err = Object.assign(new Error("duplicate key"), {
      code: "23505",
      query: "INSERT …",
      params: ["$argon2id$v=19$…", "a@b.co"],
    });
    const logged = serializeError(err);
    expect(logged).toMatchObject({ message: "duplicate key", code: "23505" });
    expect(JSON.stringify(logged)).not.toContain("argon2");
    expect(JSON.stringify(logged)).not.toContain("a@b.co");
  });

  it("logs an error given as its text as that text", () => {
    expect(serializeError("HTTP 503" as unknown as Error)).toBe("HTTP 503");
  });
});

describe("the access log", () => {
  it("logs a health check that passes at debug, whatever query it carries", async () => {
    const lines: { level: number; msg: string; req: { url: string } }[] = [];
    const stream = new Writable({
      write(chunk: Buffer, _encoding, done) {
        lines.push(JSON.parse(chunk.toString()));
        done();
      },
    });
    const app = Fastify({ logger: { level: "debug", stream }, logController: new AccessLog() });
    app.get("/readyz", async () => "ok");
    app.get("/faq", async () => "faq");
    for (const url of ["/readyz", "/readyz?from=balancer", "/faq?readyz"]) await app.inject(url);
    await app.close();
    expect(lines.map((l) => [l.req.url, l.level, l.msg])).toEqual([
      ["/readyz", 20, "probe"],
      ["/readyz?from=balancer", 20, "probe"],
      ["/faq?readyz", 30, "request completed"],
    ]);
  });
});
