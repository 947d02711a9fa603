// The security notices: the email an account's owner gets after a change to how the account is
// signed in to, as GoTrue's mailer sends them (password_changed, email_changed, phone_changed,
// mfa_factor_enrolled, mfa_factor_unenrolled, identity_linked, identity_unlinked), and two of our
// own for recovery codes (made, used). Each is queued in the transaction of the change it tells
// of, so it is sent once, and only when the change holds. Each says how to secure the account.
import type { Queryable } from "../../db/database.ts";
import type { Mailer } from "../../mail/mailer.ts";
import type { Email } from "../../mail/outbox.ts";
import { actionEmail } from "../../mail/templates.ts";

export type SecurityEvent =
  | { kind: "password_changed" }
  | { kind: "email_changed"; newEmail: string }
  | { kind: "phone_changed"; oldPhone: string; newPhone: string }
  | { kind: "mfa_factor_enrolled"; factorType: string }
  | { kind: "mfa_factor_unenrolled"; factorType: string }
  | { kind: "identity_linked"; provider: string }
  | { kind: "identity_unlinked"; provider: string }
  | { kind: "recovery_codes_made" }
  | { kind: "recovery_code_used"; remaining: number };

const FACTOR_NAMES: Record<string, string> = {
  totp: "an authenticator app",
  phone: "a phone number for codes by text message",
};
const factorName = (type: string) => FACTOR_NAMES[type] ?? `a second factor (${type})`;
const PROVIDER_NAMES: Record<string, string> = {
  phone: "a phone number",
  email: "an email address",
};
const providerName = (provider: string) => PROVIDER_NAMES[provider] ?? provider;

/** Shows the end of a number only: the notice may be read by someone else. */
const lastDigits = (phone: string) => `ending in ${phone.slice(-4)}`;

/** The subject and what happened, per event. */
function wording(event: SecurityEvent): { subject: string; heading: string; what: string } {
  switch (event.kind) {
    case "password_changed":
      return {
        subject: "Your Revwise password was changed",
        heading: "Your password was changed",
        what: "The password of your Revwise account was just changed. Your other devices were signed out.",
      };
    case "email_changed":
      return {
        subject: "Your Revwise email address was changed",
        heading: "Your email address was changed",
        what: `Your Revwise account now signs in with ${event.newEmail} instead of this address.`,
      };
    case "phone_changed":
      return {
        subject: "Your Revwise phone number was changed",
        heading: "Your phone number was changed",
        what: `The phone number of your Revwise account was changed from the one ${lastDigits(event.oldPhone)} to the one ${lastDigits(event.newPhone)}.`,
      };
    case "mfa_factor_enrolled":
      return {
        subject: "A second factor was added to your Revwise account",
        heading: "Two-step verification: factor added",
        what: `${capitalise(factorName(event.factorType))} was added to your Revwise account's two-step verification.`,
      };
    case "mfa_factor_unenrolled":
      return {
        subject: "A second factor was removed from your Revwise account",
        heading: "Two-step verification: factor removed",
        what: `${capitalise(factorName(event.factorType))} was removed from your Revwise account's two-step verification.`,
      };
    case "identity_linked":
      return {
        subject: "A new way to sign in was added to your Revwise account",
        heading: "A new way to sign in",
        what: `${capitalise(providerName(event.provider))} can now be used to sign in to your Revwise account.`,
      };
    case "identity_unlinked":
      return {
        subject: "A way to sign in was removed from your Revwise account",
        heading: "A way to sign in was removed",
        what: `${capitalise(providerName(event.provider))} can no longer be used to sign in to your Revwise account.`,
      };
    case "recovery_codes_made":
      return {
        subject: "New recovery codes for your Revwise account",
        heading: "New recovery codes",
        what: "New recovery codes were made for your Revwise account's two-step verification. The earlier ones no longer work.",
      };
    case "recovery_code_used":
      return {
        subject: "A recovery code was used on your Revwise account",
        heading: "A recovery code was used",
        what: `A recovery code was used in place of your second factor to sign in to your Revwise account. ${
          event.remaining === 1 ? "1 code is" : `${event.remaining} codes are`
        } left.`,
      };
  }
}

const capitalise = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

/**
 * A number confirmed on the account: a change of number, or the first number (a new way to sign
 * in, as GoTrue's phone identity linked).
 */
export const phoneNotice = (oldPhone: string | null, newPhone: string): SecurityEvent =>
  oldPhone
    ? { kind: "phone_changed", oldPhone, newPhone }
    : { kind: "identity_linked", provider: "phone" };

/** The notice of one event, to the account's address. */
export function securityNotice(to: string, event: SecurityEvent, siteUrl: string): Email {
  const { subject, heading, what } = wording(event);
  return actionEmail({
    kind: `auth-notice-${event.kind.replaceAll("_", "-")}`,
    to,
    subject,
    heading,
    paragraphs: [what, "If this was you, there is nothing more to do."],
    action: { label: "Review my account", url: `${siteUrl}/account` },
    after: [
      `If it was not you, someone may have access to your account: reset your password at ${siteUrl}/auth ("Forgot password?"), then sign out every other device on your account page.`,
    ],
  });
}

/**
 * Queues the notice of the event in the caller's transaction, to the account's address (an
 * account without one, a phone-only or anonymous account, gets none). Flush the mailer after the
 * transaction commits.
 */
export async function notifyOwner(
  q: Queryable,
  mailer: Mailer,
  user: { email: string | null },
  event: SecurityEvent,
  siteUrl: string,
): Promise<void> {
  if (!user.email) return;
  await mailer.enqueue(q, securityNotice(user.email, event, siteUrl));
}
