// Proof that the person at a session is the account's owner, asked before what takes an account
// over or cannot be undone (decision 0045): a new password (the current one, or for an account
// without one the code GET /reauthenticate sent, unless an emailed link signed in just now), and
// the deletion of the account (the current password or that code).
import type { Queryable } from "../db/database.ts";
import { AuthError, ErrorCode } from "./errors.ts";
import { useReauthenticationNonce } from "./handlers/reauthenticate.ts";
import type { UserRow } from "./models/users.ts";
import { verifyPassword } from "./passwords.ts";
import { presentString } from "./request.ts";

/** How long a sign-in by an emailed link or code stands for the current password (0045). */
const EMAIL_PROOF_MS = 10 * 60 * 1000;
/** The amr methods of a session opened by an emailed link or code (GoTrue's IsRecovery). */
const EMAIL_PROOF_METHODS = new Set(["otp", "magiclink", "recovery", "invite", "email/signup"]);

/**
 * The session was opened (or raised) by an emailed link or code within the last minutes: a
 * password reset's link, or a sign-in by code, proves the address as the current password would.
 */
export const provedEmailJustNow = (amr: { method: string; timestamp: number }[]) =>
  amr.some(
    (e) => EMAIL_PROOF_METHODS.has(e.method) && Date.now() - e.timestamp * 1000 < EMAIL_PROOF_MS,
  );

/**
 * A new password from a session that did not just prove the address: the current password
 * (GoTrue's current_password rule, asked even after a reauthentication code, as GoTrue asks
 * both), or for an account without one, the code GET /reauthenticate sent, as the nonce (unless
 * it was just used, or the session is the one an anonymous sign-in started the account with).
 */
export async function proveOwnerForPassword(
  q: Queryable,
  user: UserRow,
  amr: { method: string }[],
  body: Record<string, unknown>,
  reauthenticated: boolean,
) {
  if (user.encrypted_password) {
    const current = presentString(body.current_password);
    if (current === undefined) throw currentPasswordRequired();
    if (!(await verifyPassword(user.encrypted_password, current)))
      throw new AuthError(
        400,
        ErrorCode.current_password_mismatch,
        "Current password required when setting new password.",
      );
    return;
  }
  if (reauthenticated || amr.some((e) => e.method === "anonymous")) return;
  await useNonceForPassword(q, user, body);
}

/** The code GET /reauthenticate sent, given as `nonce` with a new password, used up. */
export async function useNonceForPassword(
  q: Queryable,
  user: UserRow,
  body: Record<string, unknown>,
): Promise<void> {
  const nonce = presentString(body.nonce);
  if (nonce === undefined)
    throw new AuthError(
      400,
      ErrorCode.reauthentication_needed,
      "Password update requires reauthentication",
    );
  await useReauthenticationNonce(q, user, nonce);
}

const currentPasswordRequired = () =>
  new AuthError(
    400,
    ErrorCode.current_password_required,
    "Current password required when setting new password.",
  );

/**
 * The current password, or the code GET /reauthenticate sent (`nonce`), whichever is given: for
 * what cannot be undone. Neither: the account's own way is asked for (its password, else a code).
 */
export async function proveOwnerByPasswordOrCode(
  q: Queryable,
  user: UserRow,
  given: { currentPassword: string | undefined; nonce: string | undefined },
): Promise<void> {
  if (given.currentPassword !== undefined) {
    if (!(await verifyPassword(user.encrypted_password, given.currentPassword)))
      throw new AuthError(
        400,
        ErrorCode.current_password_mismatch,
        "Current password required when setting new password.",
      );
    return;
  }
  if (given.nonce !== undefined) return useReauthenticationNonce(q, user, given.nonce);
  if (user.encrypted_password) throw currentPasswordRequired();
  throw new AuthError(400, ErrorCode.reauthentication_needed, "Reauthentication required");
}
