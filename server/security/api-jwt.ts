// Verifies the JWTs clients present to the API: the anon key (apikey header) and the bearer
// token (anon key or a user's access token). HS256 only, signed with our secret, not expired.
import { errors, jwtVerify, type JWTPayload } from "jose";

export type ApiClaims = JWTPayload & { role?: string; session_id?: string; email?: string };

export type JwtCheck =
  { ok: true; claims: ApiClaims } | { ok: false; reason: "missing" | "expired" | "invalid" };

// Verified tokens by their exact text, until they expire: the same string cannot carry another
// signature, so a hit is as strict as verifying again (and the anon key arrives on every request).
const VERIFIED_CACHE_SIZE = 1000;
const verified = new WeakMap<Uint8Array, Map<string, ApiClaims>>();

export async function verifyJwt(token: string | undefined, secret: Uint8Array): Promise<JwtCheck> {
  if (!token) return { ok: false, reason: "missing" };
  let cache = verified.get(secret);
  if (!cache) verified.set(secret, (cache = new Map()));
  const hit = cache.get(token);
  if (hit && (hit.exp === undefined || hit.exp * 1000 > Date.now()))
    return { ok: true, claims: hit };
  const result = await verifyUncached(token, secret);
  if (result.ok) {
    if (cache.size >= VERIFIED_CACHE_SIZE) cache.delete(cache.keys().next().value!);
    cache.set(token, result.claims);
  }
  return result;
}

async function verifyUncached(token: string, secret: Uint8Array): Promise<JwtCheck> {
  try {
    const { payload } = await jwtVerify<ApiClaims>(token, secret, {
      algorithms: ["HS256"],
      clockTolerance: 5,
    });
    if (typeof payload.role !== "string" || payload.role === "")
      return { ok: false, reason: "invalid" };
    return { ok: true, claims: payload };
  } catch (err) {
    return { ok: false, reason: err instanceof errors.JWTExpired ? "expired" : "invalid" };
  }
}

/** The token of an `Authorization: Bearer <token>` header, if well formed. */
export function bearerToken(header: string | undefined): string | undefined {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header ?? "");
  return match?.[1];
}

/** Roles a client key may carry (the gateway's anon and service keys). */
export const API_KEY_ROLES = new Set(["anon", "service_role"]);
