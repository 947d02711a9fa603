// Users and their email identities: finding and creating them, every change made to a user row
// (confirmation, metadata, password, email change and the stamps of the emails sent), and the
// User object in GoTrue's wire shape.
import { uuidV7At } from "../../platform/uuid.ts";
import { deleteBatchBefore } from "../../platform/retention.ts";
import type { Queryable } from "../../db/database.ts";
import { deleteTokens, type OneTimeToken } from "./one-time-tokens.ts";

export type UserRow = {
  id: string;
  aud: string;
  role: string;
  email: string | null;
  encrypted_password: string | null;
  email_confirmed_at: Date | null;
  phone: string | null;
  phone_confirmed_at: Date | null;
  phone_change: string | null;
  phone_change_sent_at: Date | null;
  reauthentication_sent_at: Date | null;
  invited_at: Date | null;
  is_anonymous: boolean;
  deleted_at: Date | null;
  confirmation_sent_at: Date | null;
  recovery_sent_at: Date | null;
  email_change: string | null;
  email_change_sent_at: Date | null;
  email_change_confirm_status: number;
  last_sign_in_at: Date | null;
  raw_app_meta_data: Record<string, unknown>;
  raw_user_meta_data: Record<string, unknown>;
  banned_until: Date | null;
  /** Confirming this never proven account voids its password (models/first-proof.ts). */
  confirmation_voids_password: boolean;
  /** The address was confirmed without proof (MAILER_AUTOCONFIRM): models/first-proof.ts. */
  email_unproven: boolean;
  /** Made by a company's single sign-on: its address may also be another account's. */
  is_sso_user: boolean;
  created_at: Date;
  updated_at: Date;
};

export type IdentityRow = {
  id: string;
  user_id: string;
  provider: string;
  provider_id: string;
  identity_data: Record<string, unknown>;
  last_sign_in_at: Date | null;
  created_at: Date;
  updated_at: Date;
};

export function findUserByEmail(
  q: Queryable,
  email: string,
  lock = false,
): Promise<UserRow | undefined> {
  // A single sign-on's account is never found by its address (GoTrue's is_sso_user = false).
  return findUserWhere(q, "lower(email) = lower($1) AND NOT is_sso_user", email, lock);
}

export function findUserById(q: Queryable, id: string, lock = false): Promise<UserRow | undefined> {
  return findUserWhere(q, "id = $1", id, lock);
}

async function findUserWhere(q: Queryable, condition: string, value: string, lock: boolean) {
  const [row] = await q.query<UserRow>(
    `SELECT * FROM auth.users WHERE ${condition}${lock ? " FOR UPDATE" : ""}`,
    [value],
  );
  return row;
}

/** Who a new user is: an email address or a phone number (E.164 digits), its identity's provider. */
type NewUserIdentity = { email: string; phone?: undefined } | { phone: string; email?: undefined };

/**
 * A new user with one identity (email or phone). `passwordHash` is null for a user who signs in by
 * link or code only; `confirmed` confirms the address or number at once (an address so confirmed
 * is unproven: MAILER_AUTOCONFIRM took it as given).
 */
export async function createUser(
  q: Queryable,
  opts: NewUserIdentity & {
    passwordHash: string | null;
    metadata: Record<string, unknown>;
    confirmed: boolean;
  },
): Promise<UserRow> {
  const provider = opts.phone !== undefined ? "phone" : "email";
  const [user] = await q.query<UserRow>(
    `INSERT INTO auth.users (id, email, phone, encrypted_password, raw_user_meta_data, raw_app_meta_data,
       email_confirmed_at, phone_confirmed_at, email_unproven)
     VALUES (internal.uuid_v7(now()), $1, $2, $3, $4, jsonb_build_object('provider', $5::text, 'providers', jsonb_build_array($5::text)),
       CASE WHEN $6::boolean AND $1::text IS NOT NULL THEN now() END,
       CASE WHEN $6::boolean AND $2::text IS NOT NULL THEN now() END,
       $6::boolean AND $1::text IS NOT NULL)
     RETURNING *`,
    [
      opts.email ?? null,
      opts.phone ?? null,
      opts.passwordHash,
      JSON.stringify(opts.metadata),
      provider,
      opts.confirmed,
    ],
  );
  // Both ids are of the transaction's instant, as every time of the new user is (decoyUser).
  await q.query(
    `INSERT INTO auth.identities (id, user_id, provider, provider_id, identity_data)
     VALUES (internal.uuid_v7(now()), $1, $2, $3, $4)`,
    [user!.id, provider, user!.id, JSON.stringify(identityData(user!.id, opts, opts.confirmed))],
  );
  return user!;
}

/** An anonymous user: no address, number, password or identity until one is added. */
export async function createAnonymousUser(
  q: Queryable,
  metadata: Record<string, unknown>,
): Promise<UserRow> {
  const [user] = await q.query<UserRow>(
    `INSERT INTO auth.users (is_anonymous, raw_user_meta_data, raw_app_meta_data) VALUES (true, $1, '{}')
     RETURNING *`,
    [JSON.stringify(metadata)],
  );
  return user!;
}

/** An identity's data as GoTrue writes it at sign-up. */
function identityData(id: string, who: NewUserIdentity, confirmed: boolean) {
  return who.phone !== undefined
    ? { sub: id, phone: who.phone, email_verified: false, phone_verified: confirmed }
    : { sub: id, email: who.email, email_verified: confirmed, phone_verified: false };
}

export async function identitiesOf(q: Queryable, userId: string): Promise<IdentityRow[]> {
  return q.query<IdentityRow>(
    "SELECT * FROM auth.identities WHERE user_id = $1 ORDER BY created_at",
    [userId],
  );
}

export async function markEmailConfirmed(q: Queryable, userId: string): Promise<UserRow> {
  const [user] = await q.query<UserRow>(
    "UPDATE auth.users SET email_confirmed_at = coalesce(email_confirmed_at, now()), email_unproven = false, updated_at = now() WHERE id = $1 RETURNING *",
    [userId],
  );
  await q.query(
    `UPDATE auth.identities SET identity_data = identity_data || '{"email_verified": true}', updated_at = now()
     WHERE user_id = $1 AND provider = 'email'`,
    [userId],
  );
  return user!;
}

/** Keeps the user's new metadata (already merged and checked by the caller). */
export function setMetadata(q: Queryable, userId: string, metadata: Record<string, unknown>) {
  return updateUser(q, "raw_user_meta_data = $2", [userId, JSON.stringify(metadata)]);
}

/** Keeps a new password hash; a new password voids pending recovery links. */
export async function setPassword(
  q: Queryable,
  userId: string,
  passwordHash: string,
): Promise<UserRow> {
  const user = await updateUser(q, "encrypted_password = $2", [userId, passwordHash]);
  await deleteTokens(q, userId, ["recovery"]);
  return user;
}

/** Records a requested change of address; it applies once both addresses confirm. */
export function requestEmailChange(q: Queryable, userId: string, newEmail: string) {
  return updateUser(
    q,
    "email_change = $2, email_change_sent_at = now(), email_change_confirm_status = 0",
    [userId, newEmail],
  );
}

/** When each kind of email last went to the user (at most one a minute per purpose). */
export async function stampEmailSent(
  q: Queryable,
  userId: string,
  email: "confirmation" | "recovery" | "email_change" | "reauthentication",
): Promise<UserRow> {
  const [user] = await q.query<UserRow>(
    `UPDATE auth.users SET ${email}_sent_at = now() WHERE id = $1 RETURNING *`,
    [userId],
  );
  return user!;
}

async function updateUser(q: Queryable, set: string, params: unknown[]): Promise<UserRow> {
  const [user] = await q.query<UserRow>(
    `UPDATE auth.users SET ${set}, updated_at = now() WHERE id = $1 RETURNING *`,
    params,
  );
  return user!;
}

type EmailChangeStep =
  { kind: "changed"; user: UserRow } | { kind: "needs_other_link" } | { kind: "invalid" };

/**
 * Uses one of the two links of a pending email change. A link counts only for the change now
 * pending: the address it was sent to must still be the new address (or, for the current one,
 * the account's address). The first link used is recorded; the second applies the change. With
 * `mailerAutoconfirm` (MAILER_AUTOCONFIRM) the first link applies it.
 */
export async function confirmEmailChange(
  q: Queryable,
  token: OneTimeToken,
  mailerAutoconfirm: boolean,
): Promise<EmailChangeStep> {
  const user = await findUserById(q, token.user_id, true);
  const sentTo = token.token_type === "email_change_new" ? user?.email_change : user?.email;
  if (!user?.email_change || token.relates_to !== sentTo) return { kind: "invalid" };
  // A user without an address yet (phone or anonymous) confirms the new address only.
  if (!mailerAutoconfirm && user.email_change_confirm_status === 0 && user.email) {
    await q.query("UPDATE auth.users SET email_change_confirm_status = 1 WHERE id = $1", [user.id]);
    return { kind: "needs_other_link" };
  }
  // The new address is proven by its own link only (with MAILER_AUTOCONFIRM the current one's
  // applies the change too).
  const proven = token.token_type === "email_change_new";
  return { kind: "changed", user: await applyEmailChange(q, user.id, user.email_change, proven) };
}

/**
 * Changes the user's address to `newEmail` at once: it becomes the user's, confirmed, and its
 * email identity's (an anonymous user becomes a full one); a pending change and its links are void.
 * `proven` when a link sent to `newEmail` was used (else MAILER_AUTOCONFIRM took it as given).
 */
export async function applyEmailChange(
  q: Queryable,
  userId: string,
  newEmail: string,
  proven: boolean,
): Promise<UserRow> {
  await linkIdentity(q, userId, "email", { email: newEmail, email_verified: true });
  const [changed] = await q.query<UserRow>(
    `UPDATE auth.users SET email = $2, email_change = NULL, email_change_sent_at = NULL,
       email_change_confirm_status = 0, email_confirmed_at = now(), email_unproven = NOT $3::boolean,
       is_anonymous = false, updated_at = now()
     WHERE id = $1 RETURNING *`,
    [userId, newEmail, proven],
  );
  await deleteTokens(q, userId, ["email_change_new", "email_change_current"]);
  return changed!;
}

/**
 * app_metadata's providers as GoTrue derives them from the user's ($1) identities: each provider
 * once, the oldest identity's first, and `provider` the first of them.
 */
const PROVIDERS_FROM_IDENTITIES = `raw_app_meta_data || (
  SELECT jsonb_strip_nulls(jsonb_build_object(
    'providers', coalesce(jsonb_agg(p.provider ORDER BY p.first, p.provider), '[]'),
    'provider', (array_agg(p.provider ORDER BY p.first, p.provider))[1]))
  FROM (SELECT provider, min(created_at) AS first FROM auth.identities WHERE user_id = $1
        GROUP BY provider) p)`;

/**
 * Brings the user's identity of this provider up to date with `data` (an email or a phone number
 * that was just confirmed), creating it when the user had none: then, when app_metadata does not
 * list the provider yet, its providers follow the identities, as GoTrue does. Read the user row
 * again afterwards.
 */
export async function linkIdentity(
  q: Queryable,
  userId: string,
  provider: "email" | "phone",
  data: Record<string, unknown>,
): Promise<void> {
  const updated = await q.query(
    `UPDATE auth.identities SET identity_data = identity_data || $3::jsonb, updated_at = now()
     WHERE user_id = $1 AND provider = $2 RETURNING id`,
    [userId, provider, JSON.stringify(data)],
  );
  if (updated.length > 0) return;
  await q.query(
    `INSERT INTO auth.identities (user_id, provider, provider_id, identity_data) VALUES ($1, $2, $3, $4)`,
    [
      userId,
      provider,
      userId,
      JSON.stringify({ sub: userId, email_verified: false, phone_verified: false, ...data }),
    ],
  );
  await q.query(
    `UPDATE auth.users SET raw_app_meta_data = ${PROVIDERS_FROM_IDENTITIES}
     WHERE id = $1 AND NOT coalesce(raw_app_meta_data->'providers', '[]') ? $2`,
    [userId, provider],
  );
}

/** app_metadata's providers follow the user's identities again (one was added). */
export async function refreshProviders(q: Queryable, userId: string): Promise<void> {
  await q.query(
    `UPDATE auth.users SET raw_app_meta_data = ${PROVIDERS_FROM_IDENTITIES}, updated_at = now() WHERE id = $1`,
    [userId],
  );
}

/**
 * Removes one of the user's identities. Its address or number leaves the account with it (an
 * email identity's address, a phone identity's number, each unconfirmed), and the account's
 * providers become those of the identities left.
 */
export async function unlinkIdentity(q: Queryable, identity: IdentityRow): Promise<void> {
  await q.query("DELETE FROM auth.identities WHERE id = $1", [identity.id]);
  const cleared =
    identity.provider === "email"
      ? "email = NULL, email_confirmed_at = NULL,"
      : identity.provider === "phone"
        ? "phone = NULL, phone_confirmed_at = NULL,"
        : "";
  await q.query(
    `UPDATE auth.users SET ${cleared}
       raw_app_meta_data = ${PROVIDERS_FROM_IDENTITIES}, updated_at = now()
     WHERE id = $1`,
    [identity.user_id],
  );
}

export function isBanned(user: UserRow): boolean {
  return user.banned_until !== null && user.banned_until.getTime() > Date.now();
}

const iso = (d: Date | null | undefined) => (d ? new Date(d).toISOString() : undefined);

/** GoTrue's User JSON: empty email/phone as "", null timestamps omitted, factors omitted when none. */
export function serializeUser(
  user: UserRow,
  identities: IdentityRow[],
  factors: Record<string, unknown>[] = [],
) {
  const confirmed = iso(earliest(user.email_confirmed_at, user.phone_confirmed_at));
  const metadata = {
    ...user.raw_user_meta_data,
    ...(user.email_confirmed_at ? { email_verified: true } : {}),
  };
  return dropUndefined({
    id: user.id,
    aud: user.aud,
    role: user.role,
    email: user.email ?? "",
    email_confirmed_at: iso(user.email_confirmed_at),
    phone: user.phone ?? "",
    phone_confirmed_at: iso(user.phone_confirmed_at),
    confirmation_sent_at: iso(user.confirmation_sent_at),
    confirmed_at: confirmed,
    recovery_sent_at: iso(user.recovery_sent_at),
    new_email: user.email_change ?? undefined,
    email_change_sent_at: iso(user.email_change_sent_at),
    new_phone: user.phone_change ?? undefined,
    phone_change_sent_at: iso(user.phone_change_sent_at),
    reauthentication_sent_at: iso(user.reauthentication_sent_at),
    invited_at: iso(user.invited_at),
    last_sign_in_at: iso(user.last_sign_in_at),
    app_metadata: user.raw_app_meta_data,
    user_metadata: metadata,
    factors: factors.length > 0 ? factors : undefined,
    identities: identities.map((i) => serializeIdentity(i, user.email ?? undefined)),
    banned_until: iso(user.banned_until),
    created_at: iso(user.created_at),
    updated_at: iso(user.updated_at),
    deleted_at: iso(user.deleted_at),
    is_anonymous: user.is_anonymous,
  });
}

function earliest(a: Date | null, b: Date | null): Date | null {
  if (!a || !b) return a ?? b;
  return a.getTime() <= b.getTime() ? a : b;
}

function serializeIdentity(identity: IdentityRow, email: string | undefined) {
  // An external provider's identity names the provider's address (GoTrue's generated column).
  const named = identity.identity_data.email;
  const external = identity.provider !== "email" && identity.provider !== "phone";
  return dropUndefined({
    identity_id: identity.id,
    id: identity.provider_id,
    user_id: identity.user_id,
    identity_data: identity.identity_data,
    provider: identity.provider,
    last_sign_in_at: iso(identity.last_sign_in_at),
    created_at: iso(identity.created_at),
    updated_at: iso(identity.updated_at),
    email: external ? (typeof named === "string" && named ? named : undefined) : email,
  });
}

/**
 * What sign-up answers for an address or number that already has an account: shaped exactly like
 * a new user's answer (every time one instant and both ids of its millisecond, as createUser
 * makes them; an identity; confirmation_sent_at now), so nobody can tell.
 */
export function decoyUser(who: NewUserIdentity, metadata: Record<string, unknown>) {
  const now = new Date();
  const id = uuidV7At(now);
  const provider = who.phone !== undefined ? "phone" : "email";
  const identity: IdentityRow = {
    id: uuidV7At(now),
    user_id: id,
    provider,
    provider_id: id,
    identity_data: identityData(id, who, false),
    last_sign_in_at: null,
    created_at: now,
    updated_at: now,
  };
  const user: UserRow = {
    id,
    aud: "authenticated",
    role: "authenticated",
    email: who.email ?? null,
    encrypted_password: "",
    email_confirmed_at: null,
    phone: who.phone ?? null,
    phone_confirmed_at: null,
    phone_change: null,
    phone_change_sent_at: null,
    reauthentication_sent_at: null,
    invited_at: null,
    is_anonymous: false,
    deleted_at: null,
    confirmation_sent_at: now,
    recovery_sent_at: null,
    email_change: null,
    email_change_sent_at: null,
    email_change_confirm_status: 0,
    last_sign_in_at: null,
    raw_app_meta_data: { provider, providers: [provider] },
    raw_user_meta_data: inJsonbOrder(metadata),
    banned_until: null,
    confirmation_voids_password: false,
    email_unproven: false,
    is_sso_user: false,
    created_at: now,
    updated_at: now,
  };
  return serializeUser(user, [identity]);
}

/** A JSON value with its object keys in the order jsonb keeps them: shorter first, then bytewise. */
function inJsonbOrder<T>(value: T): T {
  if (typeof value !== "object" || value === null) return value;
  if (Array.isArray(value)) return value.map(inJsonbOrder) as T;
  const keyed = Object.entries(value).map(([k, v]) => [Buffer.from(k), k, v] as const);
  keyed.sort(([a], [b]) => a.length - b.length || Buffer.compare(a, b));
  return Object.fromEntries(keyed.map(([, k, v]) => [k, inJsonbOrder(v)])) as T;
}

function dropUndefined<T extends Record<string, unknown>>(obj: T): T {
  return Object.fromEntries(Object.entries(obj).filter(([, v]) => v !== undefined)) as T;
}

/** GoTrue's cleanup deletes anonymous users 30 days after they were made. */
const ANONYMOUS_KEEP_MS = 30 * 86_400_000;

/**
 * Deletes at most `limit` anonymous users made 30 days before `at`, with everything of theirs
 * (sessions, tokens, flow states go with the row); how many went. An anonymous user that added
 * an address is no longer anonymous and stays.
 */
export async function deleteOldAnonymousUsers(
  q: Queryable,
  limit: number,
  at = new Date(),
): Promise<number> {
  return deleteBatchBefore(
    q,
    "auth.users",
    "is_anonymous AND created_at < $1::timestamptz",
    new Date(at.getTime() - ANONYMOUS_KEEP_MS),
    limit,
  );
}
