// What each lead form makes the site email: the team's notification of a new lead (to
// NOTIFY_EMAIL, with the visitor's address as Reply-To, never to an address the visitor typed),
// and the "Watch Demo" dialog's email to the visitor. The layouts are mail/templates.ts's.
import {
  companySizeLabel,
  type Contact,
  type LeadSource,
  type RequestAccess,
  type RequestDemo,
} from "../../common/leads.ts";
import type { Config } from "../config.ts";
import type { Email } from "../mail/outbox.ts";
import { actionEmail, leadNotification, type Field } from "../mail/templates.ts";

/** The team's email about one new lead: what the form says, field by field. */
export type TeamNotification<T> = {
  /** The email's kind in mail.outbox. */
  kind: string;
  subject(input: T): string;
  intro: string;
  fields(input: T): Field[];
};

/**
 * When and from where the lead arrived, shown under the fields of every notification, and its id
 * (the email links to the lead in the workspace).
 */
/** A lead's arrival: when, from where, its id, and the team's time zone its time is said in. */
type Arrival = {
  receivedAt: Date;
  source: LeadSource | undefined;
  leadId: string;
  timeZone: string;
};

export function notifyTeam<T extends { email: string }>(
  notification: TeamNotification<T>,
  input: T,
  opts: Arrival & { config: Config },
): Email {
  return leadNotification({
    to: opts.config.notifyEmail,
    kind: notification.kind,
    title: notification.subject(input),
    intro: notification.intro,
    replyTo: input.email,
    fields: notification.fields(input),
    source: opts.source,
    receivedAt: opts.receivedAt,
    timeZone: opts.timeZone,
    leadUrl: `${opts.config.siteUrl}/team#inbox/lead/${opts.leadId}`,
  });
}

export const requestAccessNotification: TeamNotification<RequestAccess> = {
  kind: "notify-access-request",
  subject: (i) => `New access request: ${i.firstName} ${i.lastName} (${i.companyName})`,
  intro: "Someone asked for access to Revwise from the website.",
  fields: (i) => [
    ["First name", i.firstName],
    ["Last name", i.lastName],
    ["Email", i.email],
    ["Company", i.companyName],
    ["Company size", companySizeLabel(i.companySize)],
    ["Department", i.department],
  ],
};

export const contactNotification: TeamNotification<Contact> = {
  kind: "notify-contact-message",
  subject: (i) => `New contact message from ${i.name}`,
  intro: "A visitor sent a message through the contact form.",
  fields: (i) => [
    ["Name", i.name],
    ["Email", i.email],
    ["Phone", i.phone],
    ["Message", i.message],
  ],
};

export const requestDemoNotification: TeamNotification<RequestDemo> = {
  kind: "notify-demo-request",
  subject: (i) => `New demo request: ${i.name} (${i.company})`,
  intro: "A visitor asked for a personal demo on the Request Demo page.",
  fields: (i) => [
    ["Name", i.name],
    ["Email", i.email],
    ["Phone", i.phone],
    ["Company", i.company],
    ["Position", i.position],
    ["Website", i.website],
  ],
};

/** The "Watch Demo" dialog's email to the address the visitor typed: the product tour's link. */
export const WATCH_DEMO_EMAIL_KIND = "demo-access";

export function watchDemoEmail(to: string, config: Config): Email {
  return actionEmail({
    kind: WATCH_DEMO_EMAIL_KIND,
    to,
    subject: "Your Revwise demo is ready",
    heading: "Here is your Revwise demo",
    paragraphs: [
      "Thanks for your interest in Revwise. The demo is a step-by-step product tour: it follows one sales call as Revwise captures it, writes the CRM update for you to approve and prepares the next meeting, screen by screen.",
      "Its five steps take about three minutes to read, and you can stop at any step and come back later.",
    ],
    action: { label: "Start the tour", url: config.demoUrl },
    after: [
      `Prefer a live walkthrough on your own sales process? Pick a time that suits you: ${config.bookDemoUrl}`,
    ],
  });
}
