// What proving an account's address or number for the first time does to what was made on the
// account before: pre-account hijacking (Sudhodanan and Paverd, USENIX Security 2022; decision
// 0041). Somebody may sign up with another person's address and a password of their own; the
// account stays unconfirmed until the address's owner proves it, by a link or code we sent there.
// That proof shows the owner holds the address, not that the owner chose the password, unless it
// is the confirmation of the very sign-up that chose it: every other first proof (a sign-in link
// or code, an invitation, a recovery link, a confirmation sent for a second sign-up, an admin's
// confirmation) voids the password and ends whatever the account held before (sessions, factors,
// recovery codes). With MAILER_AUTOCONFIRM=true an address is confirmed as given (email_unproven):
// its first proof voids the password and ends the sessions too, but keeps the factors, which the
// holder of the mailbox alone must not be able to remove.
import type { Queryable } from "../../db/database.ts";
import { deleteFactor, listFactors } from "./factors.ts";
import { deleteRecoveryCodes } from "./recovery-codes.ts";
import { endAllSessions } from "./sessions.ts";
import { refreshProviders, type UserRow } from "./users.ts";

/** Neither the account's address nor its number was ever confirmed. */
export const neverProven = (user: UserRow) => !user.email_confirmed_at && !user.phone_confirmed_at;

/** A proof of the account's address now is its first: never confirmed, or confirmed as given. */
export const addressUnproven = (user: UserRow) => neverProven(user) || user.email_unproven;

/**
 * Somebody other than the sign-up that set the password asks for a confirmation of this never
 * proven account (a sign-in link or code, a second sign-up): its confirmation will void the
 * password. An account proven already is left as it is.
 */
export async function disputePassword(q: Queryable, userId: string): Promise<void> {
  await q.query(
    `UPDATE auth.users SET confirmation_voids_password = true
     WHERE id = $1 AND email_confirmed_at IS NULL AND phone_confirmed_at IS NULL`,
    [userId],
  );
}

/**
 * The account's first proof, without its password: the password goes (password sign-in fails
 * from then on; the person sets one on their account page), and so does every session (their
 * refresh tokens with them) made before, and, for an account never confirmed (`factorsToo`), every
 * factor and recovery code. An account confirmed as given (not `factorsToo`) loses the identities
 * at external providers linked to it since (by whoever held its session then); a never confirmed
 * one has none but the provider's that made it. `keepPassword` when the proof is the confirmation
 * of the sign-up that set it, or an admin set it in the same change.
 */
export async function voidWhatCameBeforeProof(
  q: Queryable,
  userId: string,
  keepPassword: boolean,
  factorsToo: boolean,
): Promise<void> {
  await q.query(
    `UPDATE auth.users SET confirmation_voids_password = false${keepPassword ? "" : ", encrypted_password = NULL"}
     WHERE id = $1`,
    [userId],
  );
  if (factorsToo) {
    for (const factor of await listFactors(q, userId)) await deleteFactor(q, factor);
    await deleteRecoveryCodes(q, userId);
  } else {
    await q.query(
      "DELETE FROM auth.identities WHERE user_id = $1 AND provider NOT IN ('email', 'phone')",
      [userId],
    );
    await refreshProviders(q, userId);
  }
  await endAllSessions(q, userId);
}
