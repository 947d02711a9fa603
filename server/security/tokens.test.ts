import crypto from "node:crypto";
import { decodeProtectedHeader, jwtVerify, SignJWT } from "jose";
import { afterEach, describe, expect, it, vi } from "vitest";
import { keyObject, privateJwk, secretJwk } from "../../tests/support/jwt-keys.ts";
import { parseJwtKeys } from "./jwt-keys.ts";
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

  it("refuses another spelling of a valid token: padding, spare bits, characters outside base64url", async () => {
    const service = tokens();
    const { token } = service.mintAccessToken({ sub: "u1", aud: "a", role: "r" });
    const [header, payload, signature] = token.split(".") as [string, string, string];
    // A 256-bit signature is 43 characters: the last one carries 2 spare bits.
    const last = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
    const index = last.indexOf(signature.at(-1)!);
    const spareBitsSet = signature.slice(0, -1) + last[index ^ 1];
    const payloadPadded =
      payload.length % 4 ? `${payload}${"=".repeat(4 - (payload.length % 4))}` : payload;
    for (const spelling of [
      `${token}=`,
      `${header}.${payload}.${spareBitsSet}`,
      `${header}.${payloadPadded}.${signature}`,
      `${header}.${payload}.${signature.replace(/-/g, "+").replace(/_/g, "/")}`,
      `${header}.${payload}.${signature.slice(0, 20)} ${signature.slice(20)}`,
    ]) {
      if (spelling === token) continue;
      expect(await service.verify(spelling), spelling).toEqual({ ok: false, reason: "invalid" });
    }
    expect(await service.verify(token)).toMatchObject({ ok: true });
  });

  it("names why it refuses a token: not three parts, not valid yet", async () => {
    const service = tokens();
    const now = Math.floor(Date.now() / 1000);
    for (const token of ["abc", "a.b", "a.b.c.d"])
      expect(await service.verify(token), token).toEqual({ ok: false, reason: "malformed" });
    const early = await sign({ role: "anon", nbf: now + 600 }, now + 1200);
    expect(await service.verify(early)).toEqual({ ok: false, reason: "not_yet_valid" });
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

  it("refuses a token naming a user unless this deployment issued it; API keys name none", async () => {
    const service = tokens();
    const exp = Math.floor(Date.now() / 1000) + 60;
    const user = { role: "authenticated", sub: "u1" };
    for (const iss of [undefined, "", "https://another.example/auth/v1", "supabase"])
      expect(await service.verify(await sign({ ...user, iss }, exp)), String(iss)).toEqual({
        ok: false,
        reason: "issuer",
      });
    expect(
      await service.verify(await sign({ ...user, iss: "https://issuer.example" }, exp)),
    ).toMatchObject({
      ok: true,
    });
    expect(await service.verify(await sign({ role: "anon", iss: "supabase" }, exp))).toMatchObject({
      ok: true,
    });
  });
});

describe("TokenService with GOTRUE_JWT_KEYS", () => {
  const es = privateJwk("ES256", "es-now");
  const rs = privateJwk("RS256", "rs-before", ["verify"]);
  const oct = secretJwk("hs-legacy");
  const service = (jwks: object[] = [es, rs, oct]) =>
    new TokenService({
      secret,
      keys: parseJwtKeys(JSON.stringify(jwks)),
      issuer: "https://issuer.example",
      expSeconds: 60,
    });
  const exp = () => Math.floor(Date.now() / 1000) + 60;
  const signWith = (header: { alg: string; kid?: string }, key: crypto.KeyObject | Uint8Array) =>
    new SignJWT({ role: "authenticated", sub: "u1", iss: "https://issuer.example" })
      .setProtectedHeader(header)
      .setExpirationTime(exp())
      .sign(key);

  it("signs access tokens with the signing key, its alg and kid in the header", async () => {
    for (const signing of [es, privateJwk("RS256", "rs-now")]) {
      const tokens = service([signing, { ...rs, key_ops: ["verify"] }]);
      const { token } = tokens.mintAccessToken({ sub: "u1", aud: "a", role: "authenticated" });
      expect(decodeProtectedHeader(token)).toEqual({
        alg: signing.alg,
        kid: signing.kid,
        typ: "JWT",
      });
      const publicKey = crypto.createPublicKey(keyObject(signing));
      await expect(jwtVerify(token, publicKey)).resolves.toBeTruthy();
      expect(await tokens.verify(token)).toMatchObject({ ok: true, claims: { sub: "u1" } });
    }
  });

  it("signs HS256 with an oct key of the set, with its kid", async () => {
    const tokens = service([{ ...oct, key_ops: ["sign", "verify"] }]);
    const { token } = tokens.mintAccessToken({ sub: "u1", aud: "a", role: "authenticated" });
    expect(decodeProtectedHeader(token)).toEqual({ alg: "HS256", kid: "hs-legacy", typ: "JWT" });
    expect(await tokens.verify(token)).toMatchObject({ ok: true });
    expect(tokens.jwks).toEqual({ keys: [] });
  });

  it("verifies tokens of every key in the set, and the API keys signed with the secret", async () => {
    const tokens = service();
    for (const token of [
      await signWith({ alg: "ES256", kid: "es-now" }, keyObject(es)),
      await signWith({ alg: "RS256", kid: "rs-before" }, keyObject(rs)),
      await signWith({ alg: "HS256", kid: "hs-legacy" }, Buffer.from(oct.k!, "base64url")),
      await signWith({ alg: "HS256" }, secret),
    ])
      expect(await tokens.verify(token)).toMatchObject({ ok: true, claims: { sub: "u1" } });
  });

  it("refuses unknown keys, a kid with another alg, none, and the public key as an HMAC secret", async () => {
    const tokens = service();
    const publicKey = crypto.createPublicKey(keyObject(es));
    const pem = publicKey.export({ format: "pem", type: "spki" });
    const [, payload] = (await signWith({ alg: "ES256", kid: "es-now" }, keyObject(es))).split(".");
    const unsigned = (header: object) =>
      `${Buffer.from(JSON.stringify(header)).toString("base64url")}.${payload}.`;
    for (const token of [
      await signWith({ alg: "ES256", kid: "es-now" }, keyObject(privateJwk("ES256"))),
      await signWith({ alg: "ES256", kid: "elsewhere" }, keyObject(privateJwk("ES256"))),
      await signWith({ alg: "ES256" }, keyObject(es)),
      await signWith({ alg: "RS256", kid: "es-now" }, keyObject(rs)),
      await signWith({ alg: "HS256", kid: "es-now" }, Buffer.from(pem)),
      await signWith({ alg: "HS256", kid: "es-now" }, Buffer.from(JSON.stringify(es.x))),
      await signWith({ alg: "HS256" }, Buffer.from(pem)),
      await signWith({ alg: "HS256", kid: "rs-before" }, secret),
      unsigned({ alg: "none", kid: "es-now" }),
      unsigned({ alg: "none" }),
    ])
      expect(await tokens.verify(token)).toEqual({ ok: false, reason: "invalid" });
  });

  it("publishes the public halves of the asymmetric keys only", () => {
    const { keys } = service().jwks;
    expect(keys.map((k) => k.kid)).toEqual(["es-now", "rs-before"]);
    for (const key of keys) {
      expect(key).toMatchObject({ use: "sig", key_ops: ["verify"] });
      for (const secretPart of ["d", "p", "q", "dp", "dq", "qi", "k"])
        expect(key).not.toHaveProperty(secretPart);
    }
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
