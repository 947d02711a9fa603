// What the admin API does to users beyond what they do themselves: a page of the user list with
// its total, a user created with everything already set, an update of any field at once (metadata
// merged key by key, a ban), and deletion, hard or soft (the row stays, without what identifies
// the person).
import crypto from "node:crypto";
import type { Queryable } from "../../db/database.ts";
import { addressUnproven, neverProven, voidWhatCameBeforeProof } from "./first-proof.ts";
import { endAllSessions } from "./sessions.ts";
import { deleteTokens } from "./one-time-tokens.ts";
import { findUserById, linkIdentity, type IdentityRow, type UserRow } from "./users.ts";

type UserPage = { users: UserRow[]; total: number };

/**
 * One page of the users, newest first unless `ascending`, optionally only those whose email or
 * full name contains `filter` (case-insensitive, taken literally).
 */
export async function listUsers(
  q: Queryable,
  opts: { page: number; perPage: number; filter: string | undefined; ascending: boolean },
): Promise<UserPage> {
  const pattern =
    opts.filter === undefined ? null : `%${opts.filter.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  const matches = `($1::text IS NULL OR email ILIKE $1 OR raw_user_meta_data->>'full_name' ILIKE $1)`;
  const [users, [counted]] = await Promise.all([
    q.query<UserRow>(
      opts.ascending
        ? `SELECT * FROM auth.users WHERE ${matches} ORDER BY created_at, id LIMIT $2 OFFSET $3`
        : `SELECT * FROM auth.users WHERE ${matches} ORDER BY created_at DESC, id DESC LIMIT $2 OFFSET $3`,
      [pattern, opts.perPage, (opts.page - 1) * opts.perPage],
    ),
    // An operator's listing counts every matching user, as GoTrue's does.
    q.query<{ n: number }>(
      `SELECT count(*)::int AS n /* whole table: the admin listing's total */ FROM auth.users WHERE ${matches}`,
      [pattern],
    ),
  ]);
  return { users, total: counted!.n };
}

/**
 * The accounts that had this address before their current one (auth.former_emails), the one that
 * left it last first: how the team's tools find a member who changed their address.
 */
export function usersWhoHad(q: Queryable, email: string): Promise<UserRow[]> {
  return q.query<UserRow>(
    `SELECT u.* FROM auth.former_emails f JOIN auth.users u ON u.id = f.user_id
     WHERE f.email = lower($1) AND u.deleted_at IS NULL ORDER BY f.left_at DESC`,
    [email],
  );
}

/** The identities of several users at once, by user. */
export async function identitiesOfUsers(
  q: Queryable,
  userIds: string[],
): Promise<Map<string, IdentityRow[]>> {
  const rows = await q.query<IdentityRow>(
    "SELECT * FROM auth.identities WHERE user_id = ANY($1::uuid[]) ORDER BY created_at",
    [userIds],
  );
  const byUser = new Map<string, IdentityRow[]>(userIds.map((id) => [id, []]));
  for (const row of rows) byUser.get(row.user_id)!.push(row);
  return byUser;
}

/** A JSON object merged GoTrue's way: each key of `changes` replaces the old one, null removes it. */
export function mergeMetadata(
  current: Record<string, unknown>,
  changes: Record<string, unknown>,
): Record<string, unknown> {
  const merged = { ...current, ...changes };
  for (const [key, value] of Object.entries(changes)) if (value === null) delete merged[key];
  return merged;
}

type NewAdminUser = {
  id: string | undefined;
  email: string | undefined;
  phone: string | undefined;
  passwordHash: string | null;
  role: string;
  userMetadata: Record<string, unknown>;
  appMetadata: Record<string, unknown> | undefined;
  emailConfirm: boolean;
  phoneConfirm: boolean;
  bannedUntil: Date | null;
};

/** A user with an identity for each of its email and phone, created as the admin describes it. */
export async function createUserAsAdmin(q: Queryable, u: NewAdminUser): Promise<UserRow> {
  const providers = [...(u.email ? ["email"] : []), ...(u.phone ? ["phone"] : [])];
  const appMetadata = mergeMetadata({ provider: providers[0], providers }, u.appMetadata ?? {});
  const [user] = await q.query<UserRow>(
    `INSERT INTO auth.users (id, email, phone, encrypted_password, role, raw_user_meta_data,
       raw_app_meta_data, email_confirmed_at, phone_confirmed_at, banned_until)
     VALUES ($1, $2, $3, $4, $5, $6, $7, CASE WHEN $8::boolean THEN now() END,
       CASE WHEN $9::boolean THEN now() END, $10)
     RETURNING *`,
    [
      u.id ?? crypto.randomUUIDv7(),
      u.email ?? null,
      u.phone ?? null,
      u.passwordHash,
      u.role,
      JSON.stringify(u.userMetadata),
      JSON.stringify(appMetadata),
      u.emailConfirm && u.email !== undefined,
      u.phoneConfirm && u.phone !== undefined,
      u.bannedUntil,
    ],
  );
  if (u.email)
    await linkIdentity(q, user!.id, "email", { email: u.email, email_verified: u.emailConfirm });
  if (u.phone)
    await linkIdentity(q, user!.id, "phone", { phone: u.phone, phone_verified: u.phoneConfirm });
  return user!;
}

export type AdminUserChanges = {
  email?: string;
  phone?: string;
  passwordHash?: string;
  role?: string;
  userMetadata?: Record<string, unknown>;
  appMetadata?: Record<string, unknown>;
  emailConfirm: boolean;
  phoneConfirm: boolean;
  /** A new ban: its end, or null to lift it; undefined leaves it as it is. */
  bannedUntil?: Date | null;
};

/**
 * Applies an admin's changes to a user (locked by the caller). A new email or
 * phone becomes the user's at once and its identity follows; a confirmed one ends an anonymous
 * user's anonymity. A new password voids pending recovery links. Confirming a never proven
 * account voids what came before (models/first-proof.ts), a password set in this change excepted.
 */
export async function updateUserAsAdmin(
  q: Queryable,
  user: UserRow,
  c: AdminUserChanges,
): Promise<UserRow> {
  const endsAnonymity =
    (c.email !== undefined && c.emailConfirm) || (c.phone !== undefined && c.phoneConfirm);
  await q.query(
    `UPDATE auth.users SET email = $2, phone = $3, encrypted_password = $4, role = $5,
       raw_user_meta_data = $6, raw_app_meta_data = $7,
       email_confirmed_at = CASE WHEN $8::boolean AND $2::text IS NOT NULL THEN coalesce(email_confirmed_at, now()) ELSE email_confirmed_at END,
       email_unproven = email_unproven AND NOT ($8::boolean AND $2::text IS NOT NULL),
       phone_confirmed_at = CASE WHEN $9::boolean AND $3::text IS NOT NULL THEN coalesce(phone_confirmed_at, now()) ELSE phone_confirmed_at END,
       banned_until = $10, is_anonymous = is_anonymous AND NOT $11::boolean, updated_at = now()
     WHERE id = $1`,
    [
      user.id,
      c.email ?? user.email,
      c.phone ?? user.phone,
      c.passwordHash ?? user.encrypted_password,
      c.role ?? user.role,
      JSON.stringify(mergeMetadata(user.raw_user_meta_data, c.userMetadata ?? {})),
      JSON.stringify(mergeMetadata(user.raw_app_meta_data, c.appMetadata ?? {})),
      c.emailConfirm,
      c.phoneConfirm,
      c.bannedUntil === undefined ? user.banned_until : c.bannedUntil,
      endsAnonymity,
    ],
  );
  // The identities follow a new or newly confirmed address or number (a new identity also joins
  // app_metadata's providers).
  const email = c.email ?? (c.emailConfirm ? user.email : null);
  if (email) await linkIdentity(q, user.id, "email", { email, email_verified: c.emailConfirm });
  const phone = c.phone ?? (c.phoneConfirm ? user.phone : null);
  if (phone) await linkIdentity(q, user.id, "phone", { phone, phone_verified: c.phoneConfirm });
  if (c.passwordHash !== undefined) await deleteTokens(q, user.id, ["recovery"]);
  // An admin's confirmation of a never proven account is its first proof: the password somebody
  // set before goes, unless this change sets it (decision 0041).
  const first =
    (c.emailConfirm && (c.email ?? user.email) && addressUnproven(user)) ||
    (c.phoneConfirm && (c.phone ?? user.phone) && neverProven(user));
  if (first)
    await voidWhatCameBeforeProof(q, user.id, c.passwordHash !== undefined, neverProven(user));
  return (await findUserById(q, user.id))!;
}

/**
 * Soft deletion: the row stays (with its id, so what refers to it still resolves) but loses what
 * identifies the person or lets anyone in: email, phone, password, pending changes, the data of
 * its identities (whose ids become a hash), its former addresses, its factors, sessions and
 * one-time tokens.
 */
export async function softDeleteUser(q: Queryable, user: UserRow): Promise<void> {
  if (user.deleted_at) return;
  await q.query(
    `UPDATE auth.users SET email = NULL, phone = NULL, encrypted_password = NULL, email_change = NULL,
       phone_change = NULL, deleted_at = now(), updated_at = now()
     WHERE id = $1`,
    [user.id],
  );
  await q.query(
    `UPDATE auth.identities SET identity_data = '{}',
       provider_id = encode(sha256(convert_to(user_id::text || provider || ':' || provider_id, 'UTF8')), 'hex')
     WHERE user_id = $1`,
    [user.id],
  );
  await q.query("DELETE FROM auth.mfa_factors WHERE user_id = $1", [user.id]);
  await q.query("DELETE FROM auth.one_time_tokens WHERE user_id = $1", [user.id]);
  await q.query("DELETE FROM auth.former_emails WHERE user_id = $1", [user.id]);
  await endAllSessions(q, user.id);
}

/** An invitation went to the user's address. */
export async function stampInvited(q: Queryable, userId: string): Promise<UserRow> {
  const [user] = await q.query<UserRow>(
    "UPDATE auth.users SET invited_at = now(), confirmation_sent_at = now() WHERE id = $1 RETURNING *",
    [userId],
  );
  return user!;
}

/**
 * Puts the user on the team with `role` (and, for an admin's invitation, who invited them and
 * why: app_metadata.team_invite), or takes them off it (`role` null: both go).
 */
export async function setTeamRole(
  q: Queryable,
  userId: string,
  role: string | null,
  invite?: { by: string; note: string },
): Promise<UserRow> {
  const [user] = await q.query<UserRow>(
    role === null
      ? `UPDATE auth.users SET raw_app_meta_data = raw_app_meta_data - 'team_role' - 'team_invite',
           updated_at = now() WHERE id = $1 RETURNING *`
      : `UPDATE auth.users SET raw_app_meta_data = raw_app_meta_data || $2::jsonb, updated_at = now()
         WHERE id = $1 RETURNING *`,
    role === null
      ? [userId]
      : [
          userId,
          JSON.stringify({
            team_role: role,
            ...(invite && { team_invite: { ...invite, at: new Date().toISOString() } }),
          }),
        ],
  );
  return user!;
}

/** Hard deletion: the user and everything that is theirs. */
export async function deleteUser(q: Queryable, userId: string): Promise<void> {
  await q.query("DELETE FROM auth.users WHERE id = $1", [userId]);
}
