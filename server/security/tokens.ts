// The one token service. Every JWT the server mints (users' access tokens, the anon key) and every
// one it is shown (the apikey header; bearer tokens on /auth, /rest and /functions) goes through
// here, under one set of rules: HS256 only, signed with the server's secret, not expired (no
// leeway, as GoTrue; a token cached as valid stops being valid at the same second), and carrying
// a non-empty role. What a caller asks beyond that (our issuer for a user's session, an API key's
// role) it checks on the claims.
import crypto from "node:crypto";
import { errors, jwtVerify, type JWTPayload } from "jose";

export type Claims = JWTPayload & { role?: string; session_id?: string; email?: string };

export type TokenCheck =
  { ok: true; claims: Claims } | { ok: false; reason: "missing" | "expired" | "invalid" };

export type TokenSettings = {
  secret: Uint8Array;
  /** The `iss` of the access tokens minted for users' sessions. */
  issuer: string;
  /** Access-token lifetime. */
  expSeconds: number;
};

// Verified tokens by their exact text, until they expire: the same string cannot carry another
// signature, so a hit is as strict as verifying again (and the anon key arrives on every request).
const VERIFIED_CACHE_SIZE = 1000;

export class TokenService {
  readonly issuer: string;
  readonly expSeconds: number;
  private readonly secret: Uint8Array;
  private readonly verified = new Map<string, Claims>();

  constructor(settings: TokenSettings) {
    this.secret = settings.secret;
    this.issuer = settings.issuer;
    this.expSeconds = settings.expSeconds;
  }

  /** An access token with the given claims, our issuer, issued now, expiring after the lifetime. */
  mintAccessToken({ sub, aud, ...claims }: { sub: string; aud: string } & Record<string, unknown>) {
    const iat = Math.floor(Date.now() / 1000);
    const exp = iat + this.expSeconds;
    const token = signJwt({ iss: this.issuer, sub, aud, exp, iat, ...claims }, this.secret);
    return { token, iat, exp };
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

  private async verifyUncached(token: string): Promise<TokenCheck> {
    try {
      const { payload } = await jwtVerify<Claims>(token, this.secret, { algorithms: ["HS256"] });
      if (typeof payload.role !== "string" || payload.role === "")
        return { ok: false, reason: "invalid" };
      return { ok: true, claims: payload };
    } catch (err) {
      return { ok: false, reason: err instanceof errors.JWTExpired ? "expired" : "invalid" };
    }
  }
}

const HEADER = Buffer.from(JSON.stringify({ alg: "HS256", typ: "JWT" })).toString("base64url");
const keys = new WeakMap<Uint8Array, crypto.KeyObject>();

/**
 * An HS256 JWT written with node:crypto: two base64url JSON parts and their HMAC-SHA256. jose
 * imports the key through WebCrypto on every signature (~0.3 ms on the sign-in path, where caches
 * are cold after the password hash); verification stays with jose.
 */
export function signJwt(claims: Record<string, unknown>, secret: Uint8Array): string {
  let key = keys.get(secret);
  if (!key) keys.set(secret, (key = crypto.createSecretKey(secret)));
  const input = `${HEADER}.${Buffer.from(JSON.stringify(claims)).toString("base64url")}`;
  return `${input}.${crypto.createHmac("sha256", key).update(input).digest("base64url")}`;
}

/** The token of an `Authorization: Bearer <token>` header, if well formed. */
export function bearerToken(header: string | undefined): string | undefined {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header ?? "");
  return match?.[1];
}

/** Roles a client key may carry (the gateway's anon and service keys). */
export const API_KEY_ROLES = new Set(["anon", "service_role"]);
