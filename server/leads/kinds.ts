// The lead forms a visitor can send, one kind each, named by the form the visitor sees (the
// README's glossary maps each to its table and endpoint): the form's shared schema, the table its
// rows land in, the check constraint a refused row names, the emails a lead of the kind causes,
// and the name its webhook events carry. Each field of the schema fills the column of its name in
// snake_case. Four kinds are here; the newsletter's, whose rows are sign-ups to confirm, is the
// newsletter's own (newsletter/subscribers.ts). The tables, columns and constraints named by
// every kind are checked against the migrated database by kinds.test.ts.
import type { FastifyInstance } from "fastify";
import type { z } from "zod";
import type { LeadKindName } from "../../common/workspace.ts";
import {
  contactSchema,
  requestAccessSchema,
  requestDemoSchema,
  type LeadSource,
  type newsletterSchema,
} from "../../common/leads.ts";
import { demoEmailSchema } from "../../common/business-email.ts";
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

export type LeadKind<S extends LeadSchema = LeadSchema> = {
  /** The form's name in the events sent to the CRM (`data.kind` of a lead.created webhook). */
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

/**
 * A kind whose table /rest/v1 takes anonymous inserts into. Each row asks for an email to the
 * address it names, spent from the lead forms' budget before the row is stored
 * (mail/email-budget.ts).
 */
export type RestLeadKind<S extends LeadSchema = EmailOnly> = LeadKind<S> & {
  /** The check constraint a row the schema refuses violates, named as PostgreSQL names it. */
  check: string;
  budget: {
    /** The email's kind: what repeats are counted by. */
    purpose: string;
    /** A repeat within this many seconds sends nothing new. */
    repeatSeconds: number;
    to(input: z.output<S>): string;
    /** Over the budget, the row is refused (429), or stored without its email. */
    over: "refuse" | "store";
  };
  /**
   * How a visitor's row is stored when not as every lead (leads/store.ts, its reply sent when
   * `send`): the kind's own insert. Its `refusal` is refused once the budget is settled; `id` is
   * the row's, when one holds the visitor's request.
   */
  insert?(
    app: FastifyInstance,
    row: z.output<S> & { source?: LeadSource },
    send: boolean,
  ): Promise<{ refusal?: unknown; id?: string }>;
};
type EmailOnly = typeof newsletterSchema | typeof demoEmailSchema;

/** The check of the `source` column's domain (public.lead_source), shared by every lead table. */
export const LEAD_SOURCE_CHECK = "lead_source_check";

/** The "Watch Demo" dialog's email: the product tour's link, once an hour per address at most. */
const watchDemoReply = {
  purpose: WATCH_DEMO_EMAIL_KIND,
  repeatSeconds: 3600,
  to: (i: { email: string }) => i.email,
  compose: (i: { email: string }, config: Config) => watchDemoEmail(i.email, config),
};

/** The "Watch Demo" dialog: a business address, answered with the product tour's link. */
export const watchDemoLead: RestLeadKind<typeof demoEmailSchema> = {
  name: "watch_demo",
  schema: demoEmailSchema,
  table: "demo_requests",
  check: "demo_requests_email_check",
  reply: watchDemoReply,
  // A request over the budget is refused: the tour's link is all it asks for.
  budget: { ...watchDemoReply, over: "refuse" },
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
