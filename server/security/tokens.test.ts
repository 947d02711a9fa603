import { decodeProtectedHeader, jwtVerify, SignJWT } from "jose";
import { afterEach, describe, expect, it, vi } from "vitest";
import { signJwt, TokenService } from "./tokens.ts";

const secret = new TextEncoder().encode("api-jwt-test-secret-api-jwt-test-secret");
const tokens = () => new TokenService({ secret, issuer: "https://issuer.example", expSeconds: 60 });
const sign = (payload: object, exp: number, key = secret) =>
  new SignJWT(payload as Record<string, unknown>)
    .setProtectedHeader({ alg: "HS256" })
    .setIssuedAt()
    .setExpirationTime(exp)
    .sign(key);

describe("TokenService.verify", () => {
  afterEach(() => vi.useRealTimers());

  it("accepts our HS256 tokens with a role, and keeps refusing a cached one once it has expired", async () => {
    const service = tokens();
    const now = Math.floor(Date.now() / 1000);
    const token = await sign({ role: "anon" }, now + 60);
    expect(await service.verify(token)).toMatchObject({ ok: true, claims: { role: "anon" } });
    expect(await service.verify(token)).toMatchObject({ ok: true }); // from the cache
    vi.useFakeTimers({ now: (now + 120) * 1000 });
    expect(await service.verify(token)).toEqual({ ok: false, reason: "expired" });
  });

  it("refuses other secrets, missing roles and garbage, and caches nothing for them", async () => {
    const service = tokens();
    const now = Math.floor(Date.now() / 1000);
    const other = await sign(
      { role: "anon" },
      now + 60,
      new TextEncoder().encode("some-other-secret-some-other-secret"),
    );
    expect(await service.verify(other)).toEqual({ ok: false, reason: "invalid" });
    expect(await service.verify(other)).toEqual({ ok: false, reason: "invalid" });
    expect(await service.verify(await sign({}, now + 60))).toEqual({
      ok: false,
      reason: "invalid",
    });
    expect(await service.verify("x.y.z")).toEqual({ ok: false, reason: "invalid" });
    expect(await service.verify(undefined)).toEqual({ ok: false, reason: "missing" });
  });

  it("verifies the access tokens it mints, with its issuer and lifetime", async () => {
    const service = tokens();
    const { token, iat, exp } = service.mintAccessToken({ sub: "u1", aud: "a", role: "r" });
    expect(exp - iat).toBe(60);
    expect(await service.verify(token)).toMatchObject({
      ok: true,
      claims: { iss: "https://issuer.example", sub: "u1", aud: "a", role: "r", iat, exp },
    });
  });
});

describe("signJwt", () => {
  const key = new TextEncoder().encode("s".repeat(40));

  it("writes a JWT that jose verifies, claims intact", async () => {
    const claims = { sub: "u1", role: "authenticated", exp: 4_000_000_000, amr: [{ m: "x" }] };
    const token = signJwt(claims, key);
    expect(decodeProtectedHeader(token)).toEqual({ alg: "HS256", typ: "JWT" });
    const { payload } = await jwtVerify(token, key, { algorithms: ["HS256"] });
    expect(payload).toEqual(claims);
    expect(token).toMatch(/^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/);
  });

  it("signs with the key given: another secret or a changed payload fails verification", async () => {
    const token = signJwt({ role: "anon", exp: 4_000_000_000 }, key);
    const other = new TextEncoder().encode("t".repeat(40));
    await expect(jwtVerify(token, other)).rejects.toThrow();
    const [h, , sig] = token.split(".");
    const forged = `${h}.${Buffer.from('{"role":"service_role","exp":4000000000}').toString("base64url")}.${sig}`;
    await expect(jwtVerify(forged, key)).rejects.toThrow();
  });
});
