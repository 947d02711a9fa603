// Signing keys for tests: fresh private JWKs in the shape GOTRUE_JWT_KEYS takes them.
import crypto from "node:crypto";

export type TestJwk = crypto.JsonWebKey & { kid: string; alg: string; key_ops: string[] };

/** A new ES256 (P-256) or RS256 (2048-bit) key pair as a private JWK; it signs unless told otherwise. */
export function privateJwk(
  alg: "ES256" | "RS256",
  kid = `${alg.toLowerCase()}-${crypto.randomUUID()}`,
  keyOps = ["sign", "verify"],
): TestJwk {
  const { privateKey } =
    alg === "ES256"
      ? crypto.generateKeyPairSync("ec", { namedCurve: "P-256" })
      : crypto.generateKeyPairSync("rsa", { modulusLength: 2048 });
  return { ...privateKey.export({ format: "jwk" }), kid, alg, use: "sig", key_ops: keyOps };
}

/** An HS256 secret as an oct JWK. */
export function secretJwk(kid = `hs256-${crypto.randomUUID()}`, keyOps = ["verify"]): TestJwk {
  const k = crypto.randomBytes(32).toString("base64url");
  return { kty: "oct", k, kid, alg: "HS256", key_ops: keyOps };
}

/** The private key of a JWK, to sign tokens with in a test. */
export const keyObject = (jwk: crypto.JsonWebKey) =>
  crypto.createPrivateKey({ key: jwk, format: "jwk" });
