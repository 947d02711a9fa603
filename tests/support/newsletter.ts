// The newsletter's emails as a subscriber reads them: the confirmation's subject and the signed
// links in an email's text.
import type { ParsedMail } from "mailparser";

export const CONFIRM_SUBJECT = "Confirm your Revwise newsletter subscription";

/** The link to `path` (`/newsletter/confirm`, `/newsletter/unsubscribe`) in the email's text. */
export function newsletterLink(mail: ParsedMail, path: string): string {
  const url = new RegExp(`https?://\\S+${path}\\?token=[\\w.-]+`).exec(mail.text ?? "")?.[0];
  if (!url) throw new Error(`no ${path} link in "${mail.subject}"`);
  return url;
}
