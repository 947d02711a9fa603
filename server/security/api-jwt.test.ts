import { SignJWT } from "jose";
import { afterEach, describe, expect, it, vi } from "vitest";
import { verifyJwt } from "./api-jwt.ts";

const secret = new TextEncoder().encode("api-jwt-test-secret-api-jwt-test-secret");
const sign = (payload: object, exp: number, key = secret) =>
  new SignJWT(payload as Record<string, unknown>)
    .setProtectedHeader({ alg: "HS256" })
    .setIssuedAt()
    .setExpirationTime(exp)
    .sign(key);

describe("verifyJwt", () => {
  afterEach(() => vi.useRealTimers());

  it("accepts our HS256 tokens with a role, and keeps refusing a cached one once it has expired", async () => {
    const now = Math.floor(Date.now() / 1000);
    const token = await sign({ role: "anon" }, now + 60);
    expect(await verifyJwt(token, secret)).toMatchObject({ ok: true, claims: { role: "anon" } });
    expect(await verifyJwt(token, secret)).toMatchObject({ ok: true }); // from the cache
    vi.useFakeTimers({ now: (now + 120) * 1000 });
    expect(await verifyJwt(token, secret)).toEqual({ ok: false, reason: "expired" });
  });

  it("refuses other secrets, missing roles and garbage, and caches nothing for them", async () => {
    const now = Math.floor(Date.now() / 1000);
    const other = await sign(
      { role: "anon" },
      now + 60,
      new TextEncoder().encode("some-other-secret-some-other-secret"),
    );
    expect(await verifyJwt(other, secret)).toEqual({ ok: false, reason: "invalid" });
    expect(await verifyJwt(other, secret)).toEqual({ ok: false, reason: "invalid" });
    expect(await verifyJwt(await sign({}, now + 60), secret)).toEqual({
      ok: false,
      reason: "invalid",
    });
    expect(await verifyJwt("x.y.z", secret)).toEqual({ ok: false, reason: "invalid" });
    expect(await verifyJwt(undefined, secret)).toEqual({ ok: false, reason: "missing" });
  });
});
