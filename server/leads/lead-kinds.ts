// The five kinds of lead: where each is stored and which emails it causes. REST inserts and the
// server functions both store leads through storeLead(), so a lead and its emails always share
// one transaction. A kind emails the team (its notification) and, at most once, the address the
// visitor typed (its reply); the caller spends the email budget for a reply first (email-budget.ts).
import {
  companySizeLabel,
  type Contact,
  type LeadSource,
  type RequestAccess,
  type RequestDemo,
} from "../../common/leads.ts";
import type { Config } from "../config.ts";
import type { Queryable } from "../db/database.ts";
import type { Email } from "../mail/outbox.ts";
import { actionEmail, leadNotification } from "../mail/templates.ts";

export type StoredLead = { id: string; created_at: Date } & Record<string, unknown>;

type Kind<T> = {
  table: string;
  /** Column ← field of the validated input (identifiers are constants, never client input). */
  columns: Record<string, (input: T) => unknown>;
  /** The email to the team's inbox (NOTIFY_EMAIL), never to an address the visitor typed. */
  notification?(input: T, receivedAt: Date, source: LeadSource | undefined, config: Config): Email;
  /**
   * The email to the address the visitor typed. A kind with a reply keeps one row per address:
   * asking again stores nothing new and answers as the first time did.
   */
  reply?: {
    /** The email's kind, and what repeats are counted by. */
    purpose: string;
    /** A repeat within this many seconds sends nothing new. */
    repeatSeconds: number;
    to(input: T): string;
    compose(input: T, config: Config): Email;
  };
};

const notify = (config: Config, receivedAt: Date, source: LeadSource | undefined) => ({
  to: config.notifyEmail,
  receivedAt,
  source,
});

export const newsletterLead: Kind<{ email: string }> = {
  table: "newsletter_subscribers",
  columns: { email: (i) => i.email },
};

export const demoRequestLead: Kind<{ email: string }> = {
  table: "demo_requests",
  columns: { email: (i) => i.email },
  reply: {
    purpose: "demo-access",
    repeatSeconds: 3600,
    to: (i) => i.email,
    compose: (input, config) =>
      actionEmail({
        kind: "demo-access",
        to: input.email,
        subject: "Your Revwise demo is ready",
        heading: "Here is your Revwise demo",
        paragraphs: [
          "Thanks for your interest in Revwise. The product tour shows how Revwise captures a sales call, writes the CRM update for you and turns every conversation into deal insight.",
          "It takes about ten minutes, and you can pause at any point.",
        ],
        action: { label: "Watch the demo", url: config.demoUrl },
        after: [
          `Prefer a live walkthrough on your own sales process? Pick a time that suits you: ${config.bookDemoUrl}`,
        ],
      }),
  },
};

export const accessRequestLead: Kind<RequestAccess> = {
  table: "access_requests",
  columns: {
    first_name: (i) => i.firstName,
    last_name: (i) => i.lastName,
    email: (i) => i.email,
    company_name: (i) => i.companyName,
    company_size: (i) => i.companySize,
    department: (i) => i.department,
  },
  notification: (i, receivedAt, source, config) =>
    leadNotification({
      ...notify(config, receivedAt, source),
      kind: "notify-access-request",
      title: `New access request: ${i.firstName} ${i.lastName} (${i.companyName})`,
      intro: "Someone asked for access to Revwise from the website.",
      replyTo: i.email,
      fields: [
        ["First name", i.firstName],
        ["Last name", i.lastName],
        ["Email", i.email],
        ["Company", i.companyName],
        ["Company size", companySizeLabel(i.companySize)],
        ["Department", i.department],
      ],
    }),
};

export const contactMessageLead: Kind<Contact> = {
  table: "contact_messages",
  columns: {
    name: (i) => i.name,
    email: (i) => i.email,
    phone: (i) => i.phone,
    message: (i) => i.message,
  },
  notification: (i, receivedAt, source, config) =>
    leadNotification({
      ...notify(config, receivedAt, source),
      kind: "notify-contact-message",
      title: `New contact message from ${i.name}`,
      intro: "A visitor sent a message through the contact form.",
      replyTo: i.email,
      fields: [
        ["Name", i.name],
        ["Email", i.email],
        ["Phone", i.phone],
        ["Message", i.message],
      ],
    }),
};

export const demoFormLead: Kind<RequestDemo> = {
  table: "demo_form_requests",
  columns: {
    name: (i) => i.name,
    email: (i) => i.email,
    phone: (i) => i.phone,
    company: (i) => i.company,
    position: (i) => i.position,
    website: (i) => i.website || null,
  },
  notification: (i, receivedAt, source, config) =>
    leadNotification({
      ...notify(config, receivedAt, source),
      kind: "notify-demo-request",
      title: `New demo request: ${i.name} (${i.company})`,
      intro: "A visitor asked for a personal demo on the Request Demo page.",
      replyTo: i.email,
      fields: [
        ["Name", i.name],
        ["Email", i.email],
        ["Phone", i.phone],
        ["Company", i.company],
        ["Position", i.position],
        ["Website", i.website],
      ],
    }),
};

export type LeadKind<T> = Kind<T>;

type Stored<R> = R extends "none" ? undefined : StoredLead;
type Returning = "id" | "none";

/**
 * The statements of a kind, built once per shape (they depend only on the kind's columns, what
 * is read back and whether emails are queued): a lead is stored on every form post.
 */
const statements = new WeakMap<Kind<never>, Map<string, string>>();

function statementFor(kind: Kind<never>, returning: Returning, withEmails: boolean): string {
  let byShape = statements.get(kind);
  if (!byShape) statements.set(kind, (byShape = new Map()));
  const shape = `${returning}:${withEmails}`;
  let sql = byShape.get(shape);
  if (sql === undefined) {
    // With emails, the row's time is the one they show; without, the database's default.
    const names = [...Object.keys(kind.columns), "source", ...(withEmails ? ["created_at"] : [])];
    const back = { id: " RETURNING id, created_at", none: "" }[returning];
    // A kind that replies keeps its first row per address (its unique index).
    const repeat = kind.reply ? " ON CONFLICT DO NOTHING" : "";
    const insert = `INSERT INTO public.${kind.table} (${names.join(", ")}) VALUES (${names.map((_, i) => `$${i + 1}`).join(", ")})${repeat}${back}`;
    sql = withEmails
      ? `WITH lead AS (${insert}), mail AS (
       INSERT INTO mail.outbox (kind, to_address, subject, text_body, html_body, reply_to)
       SELECT * FROM jsonb_to_recordset($${names.length + 1}::jsonb)
         AS m(kind text, to_address text, subject text, text_body text, html_body text, reply_to text)
     )
     ${returning === "none" ? "SELECT" : "SELECT * FROM lead"}`
      : insert;
    byShape.set(shape, sql);
  }
  return sql;
}

/**
 * Inserts the lead and queues its emails in one statement: atomic on its own (no transaction
 * needed), and inside the caller's transaction when there is one. `returning` says what to read
 * back: the id, or nothing (return=minimal: reading rows back is a fifth of an embedded insert's
 * cost). `reply` says whether the visitor's email goes out: only when the caller spent the
 * email budget for it (a repeat spends nothing and sends nothing).
 */
export async function storeLead<T, R extends Returning = "id">(
  q: Queryable,
  kind: Kind<T>,
  input: T,
  source: LeadSource | undefined,
  config: Config,
  opts: { returning?: R; reply?: boolean } = {},
): Promise<Stored<R>> {
  const returning = opts.returning ?? ("id" as R);
  const receivedAt = new Date();
  const emails = [
    ...(kind.notification ? [kind.notification(input, receivedAt, source, config)] : []),
    ...(kind.reply && opts.reply ? [kind.reply.compose(input, config)] : []),
  ];
  const values: unknown[] = [];
  for (const column of Object.values(kind.columns)) values.push(column(input));
  values.push(JSON.stringify(source ?? {}));
  const sql = statementFor(kind as Kind<never>, returning, emails.length > 0);
  if (emails.length === 0) {
    const [lead] = await q.query<StoredLead>(sql, values);
    return lead as Stored<R>;
  }
  const outbox = emails.map((e) => ({
    kind: e.kind,
    to_address: e.to,
    subject: e.subject,
    text_body: e.text,
    html_body: e.html,
    reply_to: e.replyTo ?? null,
  }));
  const [lead] = await q.query<StoredLead>(sql, [...values, receivedAt, JSON.stringify(outbox)]);
  return (returning === "none" ? undefined : lead) as Stored<R>;
}
