// The one token service. Every JWT the server mints (users' access tokens, the anon key) and every
// one it is shown (the apikey header; bearer tokens on /auth, /rest and /functions) goes through
// here, under one set of rules: signed by a key we hold, not expired (no leeway, as GoTrue; a
// token cached as valid stops being valid at the same second), carrying a non-empty role, and,
// when it names a user (`sub`), our issuer.
// Which key: the signing key of GOTRUE_JWT_KEYS when set (ES256, RS256 or HS256, its `kid` in the
// header), else the server's HS256 secret, which also keeps verifying the API keys. What a caller
// asks beyond that (an API key's role, a session that still exists) it checks on the claims.
import crypto from "node:crypto";
import { decodeProtectedHeader, errors, jwtVerify, SignJWT, type JWTPayload } from "jose";
import type { JwtAlg, JwtKey, PublicJwk } from "./jwt-keys.ts";

export type Claims = JWTPayload & {
  role?: string;
  session_id?: string;
  email?: string;
  aal?: string;
};

/**
 * Why a token is refused, the one list each API maps to its own words: none given, not three
 * dot-separated parts, its `nbf` still ahead, its `exp` passed, naming a user but not issued here,
 * or anything else (no key of ours signed it, no role, not canonical).
 */
export type TokenRefusal =
  "missing" | "malformed" | "not_yet_valid" | "expired" | "issuer" | "invalid";

export type TokenCheck = { ok: true; claims: Claims } | { ok: false; reason: TokenRefusal };

type TokenSettings = {
  /** The HS256 secret (JWT_SECRET): signs when no key set is given, and verifies the API keys. */
  secret: Uint8Array;
  /** GOTRUE_JWT_KEYS: one key signs, each verifies the tokens that name its kid. */
  keys?: JwtKey[] | undefined;
  /** The `iss` of the access tokens minted for users' sessions. */
  issuer: string;
  /** Access-token lifetime. */
  expSeconds: number;
};

// Verified tokens by their exact text, until they expire: a token has one spelling (only the
// canonical base64url of its parts verifies), so a hit is as strict as verifying again (and the
// anon key arrives on every request).
const VERIFIED_CACHE_SIZE = 1000;

export class TokenService {
  readonly issuer: string;
  readonly expSeconds: number;
  /** The public keys of the key set, as /.well-known/jwks.json shows them (never a secret). */
  readonly jwks: { keys: PublicJwk[] };
  private readonly secret: crypto.KeyObject;
  private readonly keys: Map<string, JwtKey>;
  private readonly signer: JwtSigner;
  /** The asymmetric key of the set that signs, if any: the only one ID tokens are signed with. */
  private readonly idTokenKey: JwtKey | undefined;
  private readonly verified = new Map<string, Claims>();

  constructor(settings: TokenSettings) {
    this.secret = crypto.createSecretKey(settings.secret);
    this.issuer = settings.issuer;
    this.expSeconds = settings.expSeconds;
    const keys = settings.keys ?? [];
    this.keys = new Map(keys.map((key) => [key.kid, key]));
    const signing = keys.find((key) => key.signs && key.privateKey);
    this.signer = signing
      ? jwtSigner(signing.alg, signing.privateKey!, signing.kid)
      : jwtSigner("HS256", this.secret);
    this.idTokenKey = signing && signing.alg !== "HS256" ? signing : undefined;
    this.jwks = { keys: keys.flatMap((key) => (key.publicJwk ? [key.publicJwk] : [])) };
  }

  /** An access token with the given claims, our issuer, issued now, expiring after the lifetime. */
  mintAccessToken({ sub, aud, ...claims }: { sub: string; aud: string } & Record<string, unknown>) {
    const iat = Math.floor(Date.now() / 1000);
    const exp = iat + this.expSeconds;
    const token = signJwt({ iss: this.issuer, sub, aud, exp, iat, ...claims }, this.signer);
    return { token, iat, exp };
  }

  /** Whether OpenID ID tokens can be issued: as GoTrue, only under an asymmetric signing key. */
  get signsIdTokens(): boolean {
    return this.idTokenKey !== undefined;
  }

  /**
   * An OpenID ID token (signed by jose with the asymmetric signing key and its kid, so a client
   * verifies it against /.well-known/jwks.json): our issuer, issued now, valid an hour (GoTrue's).
   */
  async signIdToken(claims: { sub: string; aud: string } & Record<string, unknown>) {
    const key = this.idTokenKey;
    if (!key) throw new Error("ID tokens need an asymmetric signing key (GOTRUE_JWT_KEYS)");
    return new SignJWT(claims)
      .setProtectedHeader({ alg: key.alg, kid: key.kid, typ: "JWT" })
      .setIssuer(this.issuer)
      .setIssuedAt()
      .setExpirationTime("1h")
      .sign(key.privateKey!);
  }

  async verify(token: string | undefined): Promise<TokenCheck> {
    if (!token) return { ok: false, reason: "missing" };
    const hit = this.verified.get(token);
    if (hit && (hit.exp === undefined || hit.exp * 1000 > Date.now()))
      return { ok: true, claims: hit };
    const result = await this.verifyUncached(token);
    if (result.ok) {
      if (this.verified.size >= VERIFIED_CACHE_SIZE)
        this.verified.delete(this.verified.keys().next().value!);
      this.verified.set(token, result.claims);
    }
    return result;
  }

  /**
   * The key a token's header names, as GoTrue chooses it: the key of its `kid`, for that key's
   * algorithm only (an ES256 key never checks an HS256 signature, so a public key is never taken
   * for a secret); else, for HS256, the server's secret (the API keys, and tokens it signed).
   * Anything else, `none` included, has no key.
   */
  private keyFor(token: string): { key: crypto.KeyObject; alg: JwtAlg } | undefined {
    const { kid, alg } = decodeProtectedHeader(token);
    const key = typeof kid === "string" ? this.keys.get(kid) : undefined;
    if (key) return alg === key.alg ? { key: key.verifyKey, alg: key.alg } : undefined;
    return alg === "HS256" ? { key: this.secret, alg } : undefined;
  }

  private async verifyUncached(token: string): Promise<TokenCheck> {
    if (token.split(".").length !== 3) return { ok: false, reason: "malformed" };
    if (!isCanonicalCompact(token)) return { ok: false, reason: "invalid" };
    try {
      const chosen = this.keyFor(token);
      if (!chosen) return { ok: false, reason: "invalid" };
      const { payload } = await jwtVerify<Claims>(token, chosen.key, {
        algorithms: [chosen.alg],
      });
      if (typeof payload.role !== "string" || payload.role === "")
        return { ok: false, reason: "invalid" };
      // A token naming a user is one this deployment issued for a user's session: another
      // deployment's (its `iss`), even signed with the same key, is refused by every API alike.
      // The API keys name no user.
      if (payload.sub && payload.iss !== this.issuer) return { ok: false, reason: "issuer" };
      return { ok: true, claims: payload };
    } catch (err) {
      if (err instanceof errors.JWTExpired) return { ok: false, reason: "expired" };
      if (
        err instanceof errors.JWTClaimValidationFailed &&
        err.claim === "nbf" &&
        err.reason === "check_failed"
      )
        return { ok: false, reason: "not_yet_valid" };
      return { ok: false, reason: "invalid" };
    }
  }
}

/**
 * Whether a token is three parts of unpadded base64url, each exactly as encoding its bytes writes
 * it. Decoders forgive padding and set spare bits, so without this check a valid token could be
 * spelled in several ways that all verify.
 */
function isCanonicalCompact(token: string): boolean {
  const parts = token.split(".");
  return (
    parts.length === 3 &&
    parts.every(
      (part) =>
        /^[A-Za-z0-9_-]+$/.test(part) &&
        Buffer.from(part, "base64url").toString("base64url") === part,
    )
  );
}

/** Signs JWTs with one key: its header (algorithm, kid) written once, its signature function. */
type JwtSigner = { header: string; sign(input: string): Buffer };

/** A signer for the key; `kid` goes into every header it writes. */
function jwtSigner(alg: JwtAlg, key: crypto.KeyObject, kid?: string): JwtSigner {
  const header = Buffer.from(
    JSON.stringify(kid === undefined ? { alg, typ: "JWT" } : { alg, kid, typ: "JWT" }),
  ).toString("base64url");
  switch (alg) {
    case "HS256":
      return { header, sign: (input) => crypto.createHmac("sha256", key).update(input).digest() };
    case "RS256":
      return { header, sign: (input) => crypto.sign("sha256", Buffer.from(input), key) };
    case "ES256":
      // JWS wants the raw r‖s pair, not node's default DER.
      return {
        header,
        sign: (input) =>
          crypto.sign("sha256", Buffer.from(input), { key, dsaEncoding: "ieee-p1363" }),
      };
  }
}

const secretSigners = new WeakMap<Uint8Array, JwtSigner>();

/**
 * A JWT written with node:crypto: two base64url JSON parts and their signature, by the signer, or
 * HS256 without a kid for a bare secret. jose imports the key through WebCrypto on every signature
 * (~0.3 ms on the sign-in path, where caches are cold after the password hash); verification stays
 * with jose.
 */
export function signJwt(claims: Record<string, unknown>, by: Uint8Array | JwtSigner): string {
  let signer = by instanceof Uint8Array ? secretSigners.get(by) : by;
  if (!signer) {
    signer = jwtSigner("HS256", crypto.createSecretKey(by as Uint8Array));
    secretSigners.set(by as Uint8Array, signer);
  }
  const input = `${signer.header}.${Buffer.from(JSON.stringify(claims)).toString("base64url")}`;
  return `${input}.${signer.sign(input).toString("base64url")}`;
}

/** The token of an `Authorization: Bearer <token>` header, if well formed. */
export function bearerToken(header: string | undefined): string | undefined {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header ?? "");
  return match?.[1];
}

/** Roles a client key may carry (the gateway's anon and service keys). */
export const API_KEY_ROLES = new Set(["anon", "service_role"]);
