// GoTrue's signing keys (GOTRUE_JWT_KEYS): a JSON array of JWKs, each an ES256 (EC P-256) or
// RS256 (RSA) key pair, or an HS256 secret (oct). The one whose `key_ops` holds "sign" signs the
// access tokens, its `kid` in their header; every key in the set verifies the tokens that name
// its `kid`. The public halves of the asymmetric keys are what /.well-known/jwks.json shows.
import crypto from "node:crypto";

export type JwtAlg = "ES256" | "RS256" | "HS256";

export type JwtKey = {
  kid: string;
  alg: JwtAlg;
  /** `key_ops` holds "sign": this key signs the access tokens (one key of a set does). */
  signs: boolean;
  /** The private key or the secret; absent for a verify-only public key. */
  privateKey: crypto.KeyObject | undefined;
  /** What verifies its signatures: the public key, or the secret of an HS256 key. */
  verifyKey: crypto.KeyObject;
  /** The public JWK as the JWKS shows it; none for a secret, which is never shown. */
  publicJwk: PublicJwk | undefined;
};

export type PublicJwk = crypto.JsonWebKey & {
  kid: string;
  alg: JwtAlg;
  use: "sig";
  key_ops: ["verify"];
};

/** The key type and curve each algorithm needs. */
const KEY_TYPES: Record<JwtAlg, { kty: string; crv?: string }> = {
  ES256: { kty: "EC", crv: "P-256" },
  RS256: { kty: "RSA" },
  HS256: { kty: "oct" },
};
const MIN_RSA_BITS = 2048;
const MIN_SECRET_BYTES = 32;

export class JwtKeysError extends Error {
  override name = "JwtKeysError";
}

/**
 * Parses GOTRUE_JWT_KEYS; throws JwtKeysError with one line saying what is wrong (naming a key by
 * its `kid` or position, never showing key material).
 */
export function parseJwtKeys(value: string): JwtKey[] {
  let list: unknown;
  try {
    list = JSON.parse(value);
  } catch {
    throw new JwtKeysError("must be a JSON array of JWKs");
  }
  if (!Array.isArray(list) || list.length === 0)
    throw new JwtKeysError("must be a non-empty JSON array of JWKs");
  const keys = list.map((jwk: unknown, i) => parseKey(jwk, `key ${i + 1}`));
  const kids = new Set<string>();
  for (const key of keys) {
    if (kids.has(key.kid)) throw new JwtKeysError(`has two keys with kid "${key.kid}"`);
    kids.add(key.kid);
  }
  const signing = keys.filter((k) => k.signs);
  if (signing.length !== 1)
    throw new JwtKeysError(
      signing.length === 0
        ? 'has no signing key (one key needs "sign" in its key_ops)'
        : 'has several signing keys (only one key may have "sign" in its key_ops)',
    );
  return keys;
}

function parseKey(jwk: unknown, where: string): JwtKey {
  if (typeof jwk !== "object" || jwk === null || Array.isArray(jwk))
    throw new JwtKeysError(`${where} is not a JWK object`);
  const fields = jwk as Record<string, unknown>;
  const { kid, alg, kty, crv, use, key_ops: ops } = fields;
  if (typeof kid !== "string" || kid === "")
    throw new JwtKeysError(`${where} needs a kid (the key's id in token headers)`);
  const name = `key "${kid}"`;
  if (typeof alg !== "string" || !(alg in KEY_TYPES))
    throw new JwtKeysError(`${name} needs alg ES256, RS256 or HS256`);
  const type = KEY_TYPES[alg as JwtAlg];
  if (kty !== type.kty || (type.crv !== undefined && crv !== type.crv))
    throw new JwtKeysError(
      `${name} is ${alg}, which needs kty ${type.kty}${type.crv ? ` and crv ${type.crv}` : ""}`,
    );
  if (use !== undefined && use !== "sig")
    throw new JwtKeysError(`${name} has use "${String(use)}" (only "sig" keys sign tokens)`);
  if (ops !== undefined && !(Array.isArray(ops) && ops.every((op) => typeof op === "string")))
    throw new JwtKeysError(`${name} has key_ops that are not a list of strings`);
  const signs = (ops as string[] | undefined)?.includes("sign") ?? false;
  const isPrivate = kty === "oct" ? typeof fields.k === "string" : fields.d !== undefined;
  if (!isPrivate && (signs || kty === "oct"))
    throw new JwtKeysError(
      `${name} ${kty === "oct" ? "needs its secret (k)" : "signs, so it needs its private part (d)"}`,
    );
  let privateKey: crypto.KeyObject | undefined;
  let verifyKey: crypto.KeyObject;
  try {
    if (kty === "oct") {
      privateKey = verifyKey = crypto.createSecretKey(Buffer.from(fields.k as string, "base64url"));
    } else {
      const material = { key: fields as crypto.JsonWebKey, format: "jwk" } as const;
      privateKey = isPrivate ? crypto.createPrivateKey(material) : undefined;
      verifyKey = privateKey
        ? crypto.createPublicKey(privateKey)
        : crypto.createPublicKey(material);
    }
  } catch {
    throw new JwtKeysError(`${name} is not a valid ${kty} key`);
  }
  if (privateKey && kty !== "oct" && !halvesMatch(privateKey, verifyKey))
    throw new JwtKeysError(`${name} has a public part that does not match its private part`);
  if (kty === "oct" && verifyKey.symmetricKeySize! < MIN_SECRET_BYTES)
    throw new JwtKeysError(`${name} needs a secret of at least ${MIN_SECRET_BYTES} bytes`);
  if (kty === "RSA" && verifyKey.asymmetricKeyDetails!.modulusLength! < MIN_RSA_BITS)
    throw new JwtKeysError(`${name} needs an RSA modulus of at least ${MIN_RSA_BITS} bits`);
  const publicJwk: PublicJwk | undefined =
    kty === "oct"
      ? undefined
      : {
          ...verifyKey.export({ format: "jwk" }),
          kid,
          alg: alg as JwtAlg,
          use: "sig",
          key_ops: ["verify"],
        };
  return { kid, alg: alg as JwtAlg, signs, privateKey, verifyKey, publicJwk };
}

/** What the private key signs, the public key verifies (a JWK's x/y or n/e could be another's). */
function halvesMatch(privateKey: crypto.KeyObject, publicKey: crypto.KeyObject): boolean {
  const probe = Buffer.from("revwise signing key probe");
  return crypto.verify("sha256", probe, publicKey, crypto.sign("sha256", probe, privateKey));
}
