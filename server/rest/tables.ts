// The tables /rest/v1 exposes, all insert-only: what a row may contain and how it is stored.
import type { z } from "zod";
import { demoEmailSchema, leadSourceSchema, newsletterSchema } from "../../common/leads.ts";
import { demoRequestLead, newsletterLead, type LeadKind } from "../leads/lead-kinds.ts";

export type RestTable = {
  lead: LeadKind<{ email: string }>;
  /** Validates one row as sent by the client (its columns: the form's fields and `source`). */
  row: z.ZodType<{ email: string; source?: z.output<typeof leadSourceSchema> }>;
  /** The check constraint a rejected value names, as PostgreSQL would. */
  check: string;
  /** Columns a client may write, and the ones an insert returns. */
  writable: readonly string[];
  readable: readonly string[];
};

const withSource = <T extends z.ZodRawShape>(schema: z.ZodObject<T>) =>
  schema.extend({ source: leadSourceSchema.strict().optional() }).strict();

export const REST_TABLES: Record<string, RestTable> = {
  newsletter_subscribers: {
    lead: newsletterLead,
    row: withSource(newsletterSchema),
    check: "newsletter_subscribers_email_check",
    writable: ["email", "source"],
    readable: ["id", "email", "created_at", "source"],
  },
  demo_requests: {
    lead: demoRequestLead,
    row: withSource(demoEmailSchema),
    check: "demo_requests_business_email_check",
    writable: ["email", "source"],
    readable: ["id", "email", "created_at", "source"],
  },
};
