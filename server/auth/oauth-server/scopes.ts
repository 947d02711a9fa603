// The scopes a client may ask for (GoTrue's models/oauth_scope.go), and what each lets it read
// about the person: the claims of the userinfo answer and of the ID token, one list for both.
import type { UserRow } from "../models/users.ts";

export const SUPPORTED_SCOPES = ["openid", "profile", "email", "phone", "offline_access"] as const;
export type Scope = (typeof SUPPORTED_SCOPES)[number];

/** A scope string's scopes, as GoTrue splits it: on spaces, empty ones dropped. */
export function parseScopes(scope: string | null | undefined): string[] {
  return (scope ?? "").split(" ").filter((s) => s.trim() !== "");
}

export const isSupportedScope = (scope: string): scope is Scope =>
  (SUPPORTED_SCOPES as readonly string[]).includes(scope);

/** Whether every scope asked for is among those granted. */
export const coversScopes = (granted: string[], asked: string[]) =>
  asked.every((scope) => granted.includes(scope));

const text = (value: unknown) => (typeof value === "string" && value !== "" ? value : undefined);

/**
 * What the granted scopes let a client read about the person, as GoTrue's userinfo answers it:
 * `email` their address and whether it is confirmed, `profile` their name, picture, user name,
 * last change and metadata, `phone` their number and whether it is confirmed.
 */
export function userinfoClaims(user: UserRow, scopes: string[]): Record<string, unknown> {
  const claims: Record<string, unknown> = { sub: user.id };
  const meta = user.raw_user_meta_data ?? {};
  if (scopes.includes("email")) {
    if (user.email) claims.email = user.email;
    if (user.email_confirmed_at) claims.email_verified = true;
  }
  if (scopes.includes("profile")) {
    const name = text(meta.name) ?? text(meta.full_name) ?? text(user.email);
    if (name) claims.name = name;
    const picture = text(meta.picture) ?? text(meta.avatar_url);
    if (picture) claims.picture = picture;
    const username = text(meta.preferred_username) ?? text(meta.username);
    if (username) claims.preferred_username = username;
    claims.updated_at = Math.floor(new Date(user.updated_at).getTime() / 1000);
    claims.user_metadata = meta;
  }
  if (scopes.includes("phone")) {
    if (user.phone) claims.phone = user.phone;
    if (user.phone_confirmed_at) claims.phone_verified = true;
  }
  return claims;
}

/**
 * The person's claims in an ID token (GoTrue's GenerateIDToken): OpenID's names, with both
 * verification flags always present for the scope that asks for them.
 */
export function idTokenClaims(user: UserRow, scopes: string[]): Record<string, unknown> {
  const info = userinfoClaims(user, scopes);
  const claims: Record<string, unknown> = {};
  if (scopes.includes("email")) {
    claims.email = info.email;
    claims.email_verified = Boolean(user.email_confirmed_at);
  }
  if (scopes.includes("phone")) {
    claims.phone_number = info.phone;
    claims.phone_number_verified = Boolean(user.phone_confirmed_at);
  }
  if (scopes.includes("profile"))
    for (const name of ["name", "picture", "preferred_username", "updated_at"])
      if (info[name] !== undefined) claims[name] = info[name];
  return claims;
}
