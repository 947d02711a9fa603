// The newsletter's emails to a subscriber. Each carries its one-click unsubscribe link (RFC 8058
// header fields and a visible link): links.ts signs both links.
import type { Email } from "../mail/outbox.ts";
import { actionEmail, issueEmail } from "../mail/templates.ts";
import { ARCHIVE_PATH, type NewsletterLinks } from "./links.ts";
import { issueHtml } from "./markdown.ts";

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

export const WELCOME_EMAIL_KIND = "newsletter-welcome";
export const ISSUE_EMAIL_KIND = "newsletter-issue";

/** Sent once an address confirms: what it will receive, where past issues are, how to leave. */
export function welcomeEmail(to: string, id: string, links: NewsletterLinks): Email {
  return actionEmail({
    kind: WELCOME_EMAIL_KIND,
    to,
    subject: "Welcome to the Revwise newsletter",
    heading: "You are subscribed",
    paragraphs: [
      "Thank you for confirming. About once a month we send what we learn from sales conversations: how teams use Revwise, what changed in the product, and what is coming.",
      "Every issue has a link at its foot to unsubscribe in one click.",
    ],
    action: { label: "Read past issues", url: links.siteUrlOf(ARCHIVE_PATH) },
    unsubscribeUrl: links.url("unsubscribe", id),
  });
}

/** What a copy of an issue is made of: its Markdown, and the HTML made of it (once per issue). */
export type IssueContent = {
  id: string;
  /** Its place in the archive; none before it is sent (a preview links to the archive). */
  number: number | null;
  subject: string;
  body: string;
  html: string;
};

export const issueContent = (issue: Omit<IssueContent, "html">): IssueContent => ({
  ...issue,
  html: issueHtml(issue.body),
});

/**
 * One subscriber's copy of an issue (`emailId`: its outbox row). Its unsubscribe link names the
 * issue, so the issue's figures count who left through it.
 */
export function issueCopy(
  issue: IssueContent,
  to: { id: string; email: string },
  links: NewsletterLinks,
  emailId?: string,
): Email {
  return issueEmail({
    id: emailId,
    kind: ISSUE_EMAIL_KIND,
    to: to.email,
    subject: issue.subject,
    bodyHtml: issue.html,
    bodyText: issue.body,
    webUrl: links.siteUrlOf(
      issue.number === null ? ARCHIVE_PATH : `${ARCHIVE_PATH}/${issue.number}`,
    ),
    unsubscribeUrl: `${links.url("unsubscribe", to.id)}&issue=${issue.id}`,
  });
}
