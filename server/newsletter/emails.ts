// The newsletter's emails to a subscriber. Each carries its one-click unsubscribe link (RFC 8058
// header fields and a visible link): links.ts signs both links.
import type { Email } from "../mail/outbox.ts";
import { actionEmail } from "../mail/templates.ts";
import type { NewsletterLinks } from "./links.ts";

/** The confirmation email's kind, and what its repeats are counted by (mail/email-budget.ts). */
export const CONFIRM_EMAIL_KIND = "newsletter-confirm";

/** A repeated sign-up of a pending address sends its confirmation again at most once an hour. */
export const CONFIRM_REPEAT_SECONDS = 3600;

export function confirmationEmail(to: string, id: string, links: NewsletterLinks): Email {
  return actionEmail({
    kind: CONFIRM_EMAIL_KIND,
    to,
    subject: "Confirm your Revwise newsletter subscription",
    heading: "Please confirm your subscription",
    paragraphs: [
      "Someone, probably you, asked to receive the Revwise newsletter at this address. We send it only once you confirm.",
      "The link works for 7 days. If you did not ask, ignore this email: you will not hear from us again, and the address is deleted after 30 days.",
    ],
    action: { label: "Confirm my subscription", url: links.url("confirm", id) },
    unsubscribeUrl: links.url("unsubscribe", id),
  });
}
