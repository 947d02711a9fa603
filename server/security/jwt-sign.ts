// HS256 signing with node:crypto: a JWT is two base64url JSON parts and the HMAC-SHA256 of them.
// jose imports the key through WebCrypto on every signature (~0.3 ms on the sign-in path, where
// caches are cold after the password hash); verification stays with jose.
import crypto from "node:crypto";

const HEADER = Buffer.from(JSON.stringify({ alg: "HS256", typ: "JWT" })).toString("base64url");
const keys = new WeakMap<Uint8Array, crypto.KeyObject>();

export function signHs256(claims: Record<string, unknown>, secret: Uint8Array): string {
  let key = keys.get(secret);
  if (!key) keys.set(secret, (key = crypto.createSecretKey(secret)));
  const input = `${HEADER}.${Buffer.from(JSON.stringify(claims)).toString("base64url")}`;
  return `${input}.${crypto.createHmac("sha256", key).update(input).digest("base64url")}`;
}
