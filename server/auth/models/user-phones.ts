// Users' phone numbers: finding a user by number, confirming a number, and changing it (the new
// number is kept aside until its code is used). Numbers are E.164 digits without "+".
import type { Queryable } from "../../db/database.ts";
import { EMAIL_FREQUENCY_SECONDS } from "../emails/email-limits.ts";
import type { OneTimeToken } from "./one-time-tokens.ts";
import { claimStamp, type ClaimedStamp } from "./sent-stamps.ts";
import { findUserById, linkIdentity, type UserRow } from "./users.ts";

export async function findUserByPhone(
  q: Queryable,
  phone: string,
  lock = false,
): Promise<UserRow | undefined> {
  const [row] = await q.query<UserRow>(
    `SELECT * FROM auth.users WHERE phone = $1${lock ? " FOR UPDATE" : ""}`,
    [phone],
  );
  return row;
}

/** The number's code was used: it is confirmed, on the user and on their phone identity. */
export async function markPhoneConfirmed(q: Queryable, userId: string): Promise<UserRow> {
  const [user] = await q.query<UserRow>(
    `UPDATE auth.users SET phone_confirmed_at = coalesce(phone_confirmed_at, now()), is_anonymous = false,
       updated_at = now() WHERE id = $1 RETURNING *`,
    [userId],
  );
  await q.query(
    `UPDATE auth.identities SET identity_data = identity_data || '{"phone_verified": true}', updated_at = now()
     WHERE user_id = $1 AND provider = 'phone'`,
    [userId],
  );
  return user!;
}

/**
 * Claims the minute of a code to the user's number for this purpose (at most one a minute): of
 * requests at the same moment, on any instance, one gets the minute and the others undefined. A
 * change of number is claimed only while `phone` is still the number asked for: a change to
 * another number made meanwhile stands.
 */
export async function claimPhoneCodeMinute(
  q: Queryable,
  userId: string,
  purpose: "confirmation" | "phone_change",
  phone: string,
): Promise<ClaimedStamp | undefined> {
  const pending = purpose === "phone_change" ? phone : undefined;
  return (await claimStamp(q, purpose, userId, EMAIL_FREQUENCY_SECONDS, pending))?.stamp;
}

/**
 * Records a requested change of number; it applies once the new number's code is used. The new
 * number's minute is claimed with it (under the lock its caller holds): given back, the number
 * had no code.
 */
export async function requestPhoneChange(
  q: Queryable,
  userId: string,
  phone: string,
): Promise<{ user: UserRow; minute: ClaimedStamp }> {
  const [user] = await q.query<UserRow & { claimed: string }>(
    `UPDATE auth.users SET phone_change = $2, phone_change_sent_at = now(), updated_at = now()
     WHERE id = $1 RETURNING *, phone_change_sent_at::text AS claimed`,
    [userId, phone],
  );
  const { claimed, ...row } = user!;
  return { user: row, minute: { previous: null, claimed } };
}

/**
 * Applies a change of number whose code was used (or, with SMS autoconfirm, at once): the token
 * counts only if it went to the number now pending. The user's phone identity follows (created
 * when the user had none, and "phone" joins the providers of app_metadata). Undefined when the
 * token is not for the pending change.
 */
export async function confirmPhoneChange(
  q: Queryable,
  userId: string,
  token: Pick<OneTimeToken, "relates_to"> | undefined,
): Promise<UserRow | undefined> {
  const user = await findUserById(q, userId, true);
  if (!user?.phone_change || (token && token.relates_to !== user.phone_change)) return undefined;
  await linkIdentity(q, user.id, "phone", { phone: user.phone_change, phone_verified: true });
  const [changed] = await q.query<UserRow>(
    `UPDATE auth.users SET phone = phone_change, phone_change = NULL, phone_change_sent_at = NULL,
       phone_confirmed_at = now(), is_anonymous = false, updated_at = now()
     WHERE id = $1 RETURNING *`,
    [user.id],
  );
  await q.query(
    "DELETE FROM auth.one_time_tokens WHERE user_id = $1 AND token_type = 'phone_change'",
    [user.id],
  );
  return changed!;
}
