import { describe, expect, it } from "vitest";
import * as independent from "../../../tests/support/totp.ts";
import { base32Decode, base32Encode, matchTotp, otpauthUri, stepAt, totpCode } from "./totp.ts";

// RFC 6238 appendix B: the SHA-1 seed "12345678901234567890", 8-digit codes; ours are the last 6.
const RFC_SECRET = base32Encode(Buffer.from("12345678901234567890"));

describe("totp", () => {
  it("computes RFC 6238's test vectors", () => {
    for (const [seconds, code] of [
      [59, "94287082"],
      [1111111109, "07081804"],
      [1234567890, "89005924"],
      [2000000000, "69279037"],
    ] as const)
      expect(totpCode(RFC_SECRET, stepAt(seconds * 1000))).toBe(code.slice(2));
  });

  it("agrees with the tests' own TOTP (written apart from this one) on the same vectors", () => {
    // The seed in base32, written out (not made by this module's encoder).
    const secret = "GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ";
    expect(secret).toBe(RFC_SECRET);
    for (const [seconds, code] of [
      [59, "94287082"],
      [1111111109, "07081804"],
      [1234567890, "89005924"],
      [2000000000, "69279037"],
    ] as const) {
      const step = independent.stepAt(seconds * 1000);
      expect(independent.totpCode(secret, step)).toBe(code.slice(2));
      expect(totpCode(secret, step)).toBe(independent.totpCode(secret, step));
    }
  });

  it("round-trips base32", () => {
    const bytes = Buffer.from([0, 1, 2, 250, 251, 252, 253, 254, 255, 7]);
    expect(base32Decode(base32Encode(bytes))).toEqual(bytes);
    expect(base32Encode(Buffer.from("foobar"))).toBe("MZXW6YTBOI");
  });

  it("accepts the current step and one either side, each only after the last used", () => {
    const now = 1_700_000_000_000;
    const step = stepAt(now);
    expect(matchTotp(RFC_SECRET, totpCode(RFC_SECRET, step), now)).toBe(step);
    expect(matchTotp(RFC_SECRET, totpCode(RFC_SECRET, step - 1), now)).toBe(step - 1);
    expect(matchTotp(RFC_SECRET, totpCode(RFC_SECRET, step + 1), now)).toBe(step + 1);
    expect(matchTotp(RFC_SECRET, totpCode(RFC_SECRET, step - 2), now)).toBeUndefined();
    expect(matchTotp(RFC_SECRET, totpCode(RFC_SECRET, step), now, step)).toBeUndefined();
    expect(matchTotp(RFC_SECRET, "12345", now)).toBeUndefined();
  });

  it("writes the URI authenticator apps read", () => {
    expect(otpauthUri({ issuer: "Revwise", account: "a@b.example", secret: "ABC" })).toBe(
      "otpauth://totp/Revwise:a%40b.example?secret=ABC&issuer=Revwise&algorithm=SHA1&digits=6&period=30",
    );
  });
});
