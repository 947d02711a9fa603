// The five lead forms a visitor can send, one kind each, named by the form the visitor sees (the
// README's glossary maps each to its table and endpoint): the form's shared schema, the table its
// rows land in, the check constraint a refused row names, the emails a lead of the kind causes,
// and the name its webhook events carry. Each field of the schema fills the column of its name in
// snake_case. The tables, columns and constraints named here are checked against the migrated
// database by kinds.test.ts.
import type { z } from "zod";
import type { LeadKindName } from "../../common/workspace.ts";
import {
  contactSchema,
  demoEmailSchema,
  newsletterSchema,
  requestAccessSchema,
  requestDemoSchema,
} from "../../common/leads.ts";
import type { Config } from "../config.ts";
import type { Email } from "../mail/outbox.ts";
import {
  contactNotification,
  requestAccessNotification,
  requestDemoNotification,
  WATCH_DEMO_EMAIL_KIND,
  watchDemoEmail,
  type TeamNotification,
} from "./emails.ts";

/** A lead form's schema: an object with at least the visitor's address. */
export type LeadSchema = z.ZodObject & z.ZodType<{ email: string }>;

/** The name of each form in the events sent to the CRM (`data.kind` of a lead.created webhook). */
export type { LeadKindName };

export type LeadKind<S extends LeadSchema = LeadSchema> = {
  name: LeadKindName;
  /** The form's schema, the same one the site's form validates with. */
  schema: S;
  table: string;
  /** The email to the team's inbox (NOTIFY_EMAIL). */
  notification?: TeamNotification<z.output<S>>;
  /**
   * The email to the address the visitor typed. A kind with a reply keeps one row per address
   * (its table's unique index): asking again renews the row's latest request (store.ts RENEWED,
   * the lead's last contact), stores nothing new and answers as the first time did.
   */
  reply?: {
    /** The email's kind, and what repeats are counted by. */
    purpose: string;
    /** A repeat within this many seconds sends nothing new. */
    repeatSeconds: number;
    to(input: z.output<S>): string;
    compose(input: z.output<S>, config: Config): Email;
  };
};

/** A kind whose table /rest/v1 takes anonymous inserts into. */
export type RestLeadKind<S extends LeadSchema = EmailOnly> = LeadKind<S> & {
  /** The check constraint a row the schema refuses violates, named as PostgreSQL names it. */
  check: string;
};
type EmailOnly = typeof newsletterSchema | typeof demoEmailSchema;

/** The check of the `source` column's domain (public.lead_source), shared by every lead table. */
export const LEAD_SOURCE_CHECK = "lead_source_check";

/** The footer's newsletter sign-up. */
export const newsletterLead: RestLeadKind<typeof newsletterSchema> = {
  name: "newsletter",
  schema: newsletterSchema,
  table: "newsletter_subscribers",
  check: "newsletter_subscribers_email_check",
};

/** The "Watch Demo" dialog: a business address, answered with the product tour's link. */
export const watchDemoLead: RestLeadKind<typeof demoEmailSchema> = {
  name: "watch_demo",
  schema: demoEmailSchema,
  table: "demo_requests",
  check: "demo_requests_business_email_check",
  reply: {
    purpose: WATCH_DEMO_EMAIL_KIND,
    repeatSeconds: 3600,
    to: (i) => i.email,
    compose: (i, config) => watchDemoEmail(i.email, config),
  },
};

/** The "Request Access" dialog. */
export const requestAccessLead: LeadKind<typeof requestAccessSchema> = {
  name: "request_access",
  schema: requestAccessSchema,
  table: "access_requests",
  notification: requestAccessNotification,
};

/** The Contact page's form. */
export const contactLead: LeadKind<typeof contactSchema> = {
  name: "contact",
  schema: contactSchema,
  table: "contact_messages",
  notification: contactNotification,
};

/** The "Request Demo" page's form (a personal demo, not the "Watch Demo" dialog). */
export const requestDemoLead: LeadKind<typeof requestDemoSchema> = {
  name: "request_demo",
  schema: requestDemoSchema,
  table: "demo_form_requests",
  notification: requestDemoNotification,
};

/** The tables of the five lead forms. */
export const LEAD_TABLES = [
  newsletterLead.table,
  watchDemoLead.table,
  requestAccessLead.table,
  contactLead.table,
  requestDemoLead.table,
] as const;

/** The names of the five forms' leads (the `kind` of the `leads` view and of webhook events). */
export const LEAD_KINDS = [
  newsletterLead.name,
  watchDemoLead.name,
  requestAccessLead.name,
  contactLead.name,
  requestDemoLead.name,
] as const;

/** The kinds whose tables /rest/v1 takes anonymous inserts into, by table name. */
export const REST_LEADS: Record<string, RestLeadKind> = {
  [newsletterLead.table]: newsletterLead,
  [watchDemoLead.table]: watchDemoLead,
};

/**
 * The columns a kind's rows fill, each with the schema field it comes from: the field's name in
 * snake_case (`firstName` → `first_name`). Identifiers come from the schema, never from a client.
 */
export function columnsOf(kind: LeadKind): { column: string; field: string }[] {
  return Object.keys(kind.schema.shape).map((field) => ({
    column: field.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`),
    field,
  }));
}
