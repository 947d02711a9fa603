// Identities at external providers (Google, Microsoft, GitHub, GitLab, Keycloak): finding the
// account a provider's sign-in belongs to, as GoTrue's DetermineAccountLinking decides, making one,
// linking a further identity to one. One identity per provider and subject; an account is found
// by its address only when the provider says it verified that address.
import type { Queryable } from "../../db/database.ts";
import { refreshProviders, type IdentityRow, type UserRow } from "./users.ts";

/** Who signed in at a provider, as the account's identity keeps it. */
export type ExternalPerson = {
  provider: string;
  subject: string;
  /** The address the identity names (the primary one), lower case, or "" for none. */
  email: string;
  /** The provider says it verified `email`. */
  verified: boolean;
  /** Every address the provider verified, lower case. */
  verifiedEmails: string[];
  /** The identity's data: the provider's claims, with `email` and `email_verified`. */
  data: Record<string, unknown>;
};

export type AccountDecision =
  /** The identity is known: its account. */
  | { kind: "existing"; user: UserRow; identity: IdentityRow }
  /** An account holds an address the provider verified: the identity joins it. */
  | { kind: "link"; user: UserRow }
  /**
   * A new account; `email` is the person's address, or "" when another account holds the
   * address and the provider did not verify it (the address never takes that account over).
   */
  | { kind: "create"; email: string };

export async function findIdentity(
  q: Queryable,
  provider: string,
  subject: string,
): Promise<IdentityRow | undefined> {
  const [row] = await q.query<IdentityRow>(
    "SELECT * FROM auth.identities WHERE provider = $1 AND provider_id = $2",
    [provider, subject],
  );
  return row;
}

/**
 * Whose account a provider's sign-in is (the account row locked for the rest of the sign-in).
 * Sign-ins of one person, or of one address, take their turn (a transaction-scoped lock on each):
 * two first sign-ins at the same moment make one account, never a unique-key failure.
 */
export async function decideAccount(
  q: Queryable,
  person: ExternalPerson,
): Promise<AccountDecision> {
  const keys = [`identity:${person.provider}:${person.subject}`];
  if (person.email) keys.push(`email:${person.email}`);
  await q.query(
    "SELECT pg_advisory_xact_lock(hashtextextended(k, 0)) FROM unnest($1::text[]) AS k ORDER BY k",
    [keys],
  );
  const identity = await findIdentity(q, person.provider, person.subject);
  if (identity) {
    const [user] = await q.query<UserRow>("SELECT * FROM auth.users WHERE id = $1 FOR UPDATE", [
      identity.user_id,
    ]);
    return { kind: "existing", user: user!, identity };
  }
  // A single sign-on's linking domain is its own provider (GoTrue's GetAccountLinkingDomain):
  // it joins an account only through another identity at that provider with the same address,
  // and never finds an account by its address, so the company cannot take an account over.
  if (isSso(person.provider)) {
    const [holder] = await q.query<UserRow>(
      `SELECT u.* FROM auth.identities i JOIN auth.users u ON u.id = i.user_id
       WHERE i.provider = $1 AND lower(i.identity_data->>'email') = ANY($2::text[])
       ORDER BY i.created_at LIMIT 1 FOR UPDATE OF u`,
      [person.provider, person.verifiedEmails],
    );
    return holder ? { kind: "link", user: holder } : { kind: "create", email: person.email };
  }
  const [holder] = await q.query<UserRow>(
    "SELECT * FROM auth.users WHERE lower(email) = ANY($1::text[]) AND NOT is_sso_user ORDER BY created_at LIMIT 1 FOR UPDATE",
    [person.verifiedEmails],
  );
  if (holder) return { kind: "link", user: holder };
  if (!person.email || (await emailTaken(q, person.email))) return { kind: "create", email: "" };
  return { kind: "create", email: person.email };
}

/** A single sign-on's provider name: `sso:<provider id>`. */
export const isSso = (provider: string) => provider.startsWith("sso:");

/** Whether an account holds this (lower-case) address (a single sign-on's never does). */
export async function emailTaken(q: Queryable, email: string): Promise<boolean> {
  const rows = await q.query(
    "SELECT 1 FROM auth.users WHERE lower(email) = $1 AND NOT is_sso_user",
    [email],
  );
  return rows.length > 0;
}

/** A new account made by a provider's sign-in: no password, its one identity the provider's. */
export async function createExternalUser(
  q: Queryable,
  person: ExternalPerson,
  email: string,
): Promise<UserRow> {
  const [user] = await q.query<UserRow>(
    `INSERT INTO auth.users (id, email, raw_user_meta_data, raw_app_meta_data, is_sso_user)
     VALUES (internal.uuid_v7(now()), $1, $2, jsonb_build_object('provider', $3::text, 'providers', jsonb_build_array($3::text)), $4)
     RETURNING *`,
    [email || null, JSON.stringify(person.data), person.provider, isSso(person.provider)],
  );
  await insertIdentity(q, user!.id, person);
  return user!;
}

/** Adds the provider's identity to an account, and the provider to its app_metadata. */
export async function addExternalIdentity(
  q: Queryable,
  userId: string,
  person: ExternalPerson,
): Promise<IdentityRow> {
  const identity = await insertIdentity(q, userId, person);
  await refreshProviders(q, userId);
  return identity;
}

async function insertIdentity(q: Queryable, userId: string, person: ExternalPerson) {
  const [identity] = await q.query<IdentityRow>(
    `INSERT INTO auth.identities (user_id, provider, provider_id, identity_data, last_sign_in_at)
     VALUES ($1, $2, $3, $4, now()) RETURNING *`,
    [userId, person.provider, person.subject, JSON.stringify(person.data)],
  );
  return identity!;
}

/** A known identity signs in again: the provider's newest claims kept on it. */
export async function refreshIdentityData(
  q: Queryable,
  identity: IdentityRow,
  data: Record<string, unknown>,
): Promise<void> {
  await q.query(
    "UPDATE auth.identities SET identity_data = $2, last_sign_in_at = now(), updated_at = now() WHERE id = $1",
    [identity.id, JSON.stringify(data)],
  );
}

/** The provider's claims merged into the user's metadata, as GoTrue's UpdateUserMetaData does. */
export async function mergeUserMetadata(
  q: Queryable,
  userId: string,
  data: Record<string, unknown>,
): Promise<UserRow> {
  const [user] = await q.query<UserRow>(
    "UPDATE auth.users SET raw_user_meta_data = raw_user_meta_data || $2::jsonb, updated_at = now() WHERE id = $1 RETURNING *",
    [userId, JSON.stringify(data)],
  );
  return user!;
}
