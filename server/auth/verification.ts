// What using an email link or code does: confirm the address, open a recovery session, or (once
// both the current and the new address have confirmed) apply an email change.
import type { Queryable } from "../db/database.ts";
import { AuthError, ErrorCode } from "./errors.ts";
import { deleteTokens, type OneTimeToken, type TokenType } from "./one-time-tokens.ts";
import { findUserById, markEmailConfirmed, type UserRow } from "./users.ts";

/** The verification types of the protocol and the tokens each may use. */
const VERIFY_TYPES = new Map<string, TokenType[]>([
  ["signup", ["confirmation"]],
  ["invite", ["confirmation"]],
  ["recovery", ["recovery"]],
  ["email_change", ["email_change_new", "email_change_current"]],
  ["email", ["confirmation", "recovery"]],
  ["magiclink", []],
]);

/** The token types a verification type may use; 400 validation_failed for any other type. */
export function tokenTypesFor(type: string): TokenType[] {
  const types = VERIFY_TYPES.get(type);
  if (!types)
    throw new AuthError(400, ErrorCode.validation_failed, "Unsupported verification type");
  return types;
}

export const OTHER_LINK_MESSAGE =
  "Confirmation link accepted. Please proceed to confirm link sent to the other email";

export type Verified =
  | { kind: "signed_in"; user: UserRow; method: string }
  | { kind: "needs_other_link" }
  | { kind: "invalid" };

export async function applyVerification(q: Queryable, token: OneTimeToken): Promise<Verified> {
  switch (token.token_type) {
    case "confirmation":
      return { kind: "signed_in", user: await markEmailConfirmed(q, token.user_id), method: "otp" };
    case "recovery":
      await deleteTokens(q, token.user_id, ["recovery"]);
      return {
        kind: "signed_in",
        user: await markEmailConfirmed(q, token.user_id),
        method: "recovery",
      };
    case "email_change_new":
    case "email_change_current": {
      const user = await findUserById(q, token.user_id, true);
      // A link counts only for the change now pending: the address it was sent to must still be
      // the new address (or, for the current one, the account's address).
      const sentTo = token.token_type === "email_change_new" ? user?.email_change : user?.email;
      if (!user?.email_change || token.relates_to !== sentTo) return { kind: "invalid" };
      if (user.email_change_confirm_status === 0) {
        await q.query("UPDATE auth.users SET email_change_confirm_status = 1 WHERE id = $1", [
          user.id,
        ]);
        return { kind: "needs_other_link" };
      }
      const [changed] = await q.query<UserRow>(
        `UPDATE auth.users SET email = email_change, email_change = NULL, email_change_sent_at = NULL,
           email_change_confirm_status = 0, email_confirmed_at = now(), updated_at = now()
         WHERE id = $1 RETURNING *`,
        [user.id],
      );
      await q.query(
        `UPDATE auth.identities SET identity_data = identity_data || jsonb_build_object('email', $2::text), updated_at = now()
         WHERE user_id = $1 AND provider = 'email'`,
        [user.id, changed!.email],
      );
      await deleteTokens(q, user.id, ["email_change_new", "email_change_current"]);
      return { kind: "signed_in", user: changed!, method: "email_change" };
    }
  }
}
