// A person's own deletion of their account (decision 0046): the user row stays, with its id and
// when it was made and deleted, so that what the team's history says the person did still points
// at someone (shown as "a former member"); everything else that identifies the person or lets
// anyone in goes: email, phone, password, name and every metadata, the times of confirmations and
// sign-ins, pending changes and bans, and every identity, session (with its refresh tokens),
// factor (with its challenges), recovery code, one-time token, PKCE flow state, and what the
// person allowed OAuth clients.
import type { Queryable } from "../../db/database.ts";
import { deleteRecoveryCodes } from "./recovery-codes.ts";
import { endAllSessions } from "./sessions.ts";

/**
 * Erases the user (locked by the caller). Whether this call erased it: of two requests at the
 * same moment, one does, and only that one tells the person.
 */
export async function eraseAccount(q: Queryable, userId: string): Promise<boolean> {
  const erased = await q.query(
    `UPDATE auth.users SET email = NULL, phone = NULL, encrypted_password = NULL,
       email_confirmed_at = NULL, phone_confirmed_at = NULL, phone_change = NULL,
       phone_change_sent_at = NULL, reauthentication_sent_at = NULL, invited_at = NULL,
       confirmation_sent_at = NULL, recovery_sent_at = NULL, email_change = NULL,
       email_change_sent_at = NULL, email_change_confirm_status = 0, last_sign_in_at = NULL,
       raw_app_meta_data = '{}', raw_user_meta_data = '{}', banned_until = NULL,
       is_anonymous = false, deleted_at = now(), updated_at = now()
     WHERE id = $1 AND deleted_at IS NULL RETURNING id`,
    [userId],
  );
  if (erased.length === 0) return false;
  // Sessions take their refresh tokens, factors their challenges, the set its codes (cascades).
  await q.query("DELETE FROM auth.identities WHERE user_id = $1", [userId]);
  await endAllSessions(q, userId);
  await q.query("DELETE FROM auth.mfa_factors WHERE user_id = $1", [userId]);
  await deleteRecoveryCodes(q, userId);
  await q.query("DELETE FROM auth.one_time_tokens WHERE user_id = $1", [userId]);
  await q.query("DELETE FROM auth.flow_states WHERE user_id = $1", [userId]);
  // What the person allowed OAuth clients, and the requests they opened (their sessions went above).
  await q.query("DELETE FROM auth.oauth_consents WHERE user_id = $1", [userId]);
  await q.query("DELETE FROM auth.oauth_authorizations WHERE user_id = $1", [userId]);
  return true;
}
