import { decodeProtectedHeader, jwtVerify } from "jose";
import { describe, expect, it } from "vitest";
import { signHs256 } from "./jwt-sign.ts";

const secret = new TextEncoder().encode("s".repeat(40));

describe("signHs256", () => {
  it("writes a JWT that jose verifies, claims intact", async () => {
    const claims = { sub: "u1", role: "authenticated", exp: 4_000_000_000, amr: [{ m: "x" }] };
    const token = signHs256(claims, secret);
    expect(decodeProtectedHeader(token)).toEqual({ alg: "HS256", typ: "JWT" });
    const { payload } = await jwtVerify(token, secret, { algorithms: ["HS256"] });
    expect(payload).toEqual(claims);
    expect(token).toMatch(/^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/);
  });

  it("signs with the key given: another secret or a changed payload fails verification", async () => {
    const token = signHs256({ role: "anon", exp: 4_000_000_000 }, secret);
    const other = new TextEncoder().encode("t".repeat(40));
    await expect(jwtVerify(token, other)).rejects.toThrow();
    const [h, , sig] = token.split(".");
    const forged = `${h}.${Buffer.from('{"role":"service_role","exp":4000000000}').toString("base64url")}.${sig}`;
    await expect(jwtVerify(forged, secret)).rejects.toThrow();
  });
});
