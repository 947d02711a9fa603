// The newsletter's subscribers (public.newsletter_subscribers, decision 0030), and the newsletter
// as a lead kind: a row a visitor sends is a sign-up (the kind's own insert, signUp), pending, and
// emails a confirmation; confirming subscribes and sends the lead to the CRM (its
// webhook events, once per subscriber); unsubscribing keeps the address, marked, so nothing is
// sent to it again; an address unconfirmed 30 days after its last sign-up is deleted. Only this
// module changes a subscriber's status.
import crypto from "node:crypto";
import { newsletterSchema, type LeadSource } from "../../common/leads.ts";
import type { Config } from "../config.ts";
import { isUniqueViolation, type Database, type Queryable } from "../db/database.ts";
import { columnsOf, type RestLeadKind } from "../leads/kinds.ts";
import { storeLead } from "../leads/store.ts";
import { emailsParameter, queueEmailsStatement } from "../mail/outbox.ts";
import { queueLeadEventsStatement } from "../webhooks/events.ts";
import { CONFIRM_EMAIL_KIND, CONFIRM_REPEAT_SECONDS, confirmationEmail } from "./emails.ts";
import type { NewsletterLinks } from "./links.ts";

type SubscriberStatus = "pending" | "subscribed" | "unsubscribed";

/** Days an unconfirmed address is kept after its last sign-up (the privacy policy says so). */
const PENDING_DAYS = 30;

/**
 * The footer's newsletter sign-up. A sign-up is stored whatever the email budget says; only its
 * confirmation email is budgeted (a spent budget sends none, and signing up again later sends it).
 * Its rows are stored by signUp.
 */
export const newsletterLead: RestLeadKind<typeof newsletterSchema> = {
  name: "newsletter",
  schema: newsletterSchema,
  table: "newsletter_subscribers",
  check: "newsletter_subscribers_email_check",
  budget: {
    purpose: CONFIRM_EMAIL_KIND,
    repeatSeconds: CONFIRM_REPEAT_SECONDS,
    to: (i) => i.email,
    over: "store",
  },
  insert: (app, row, send) =>
    signUp({
      db: app.db,
      input: row,
      source: row.source,
      config: app.config,
      links: app.newsletter.links,
      send,
    }),
};

/**
 * A visitor's sign-up. A new address is stored pending with its confirmation email (one statement,
 * like every lead), and without webhook events: an address reaches the CRM once it is confirmed.
 * A known one: pending stays pending, unsubscribed becomes pending again (its earlier
 * confirmation link works again too); either gets its confirmation once more when `send` (the
 * caller spent the email budget: once an hour per address). For a pending or subscribed address,
 * the database's unique violation is the answer (the spec's "Already subscribed", 409 23505):
 * returned for a pending one, whose confirmation is queued and committed by then, thrown for a
 * subscribed one, which was sent nothing. What throws queued nothing (the email budget gives its
 * claim back: mail/email-budget.ts).
 */
export async function signUp(opts: {
  db: Database;
  input: { email: string };
  source: LeadSource | undefined;
  config: Config;
  links: NewsletterLinks;
  send: boolean;
}): Promise<unknown> {
  const { db, input, links } = opts;
  const id = crypto.randomUUIDv7();
  try {
    await storeLead({
      db,
      kind: newsletterLead,
      input,
      source: opts.source,
      config: opts.config,
      events: false,
      returning: "none",
      linked: opts.send ? { id, email: confirmationEmail(input.email, id, links) } : undefined,
    });
  } catch (err) {
    if (!isUniqueViolation(err)) throw err;
    const status = await db.transaction(async (tx): Promise<SubscriberStatus> => {
      const [known] = await tx.query<{ id: string; status: SubscriberStatus }>(
        `WITH known AS (
           SELECT id, status FROM public.newsletter_subscribers WHERE lower(email) = lower($1) FOR UPDATE
         ), asked AS (
           UPDATE public.newsletter_subscribers s
           SET status = 'pending', requested_at = now(), unsubscribed_at = NULL
           FROM known WHERE s.id = known.id AND known.status <> 'subscribed'
           RETURNING s.id
         )
         SELECT id, status FROM known`,
        [input.email],
      );
      if (!known || known.status === "subscribed") return "subscribed";
      if (opts.send)
        await tx.query(`WITH lead AS (SELECT $1::uuid AS id) ${queueEmailsStatement(2, "lead")}`, [
          known.id,
          emailsParameter([confirmationEmail(input.email, known.id, links)]),
        ]);
      return known.status;
    });
    // Subscribed already: nothing was queued, so the duplicate is thrown (and the email budget's
    // claim given back). Pending: its confirmation is queued and committed, so it is returned.
    if (status === "subscribed") throw err;
    if (status === "pending") return err;
  }
  return undefined;
}

/** The subscriber's status after the change; undefined when there is no such subscriber. */
export type Change = { status: SubscriberStatus } | undefined;

/**
 * Confirms a pending subscriber: subscribed from now, and its lead.created events queued in the
 * same statement, unless it has had them (a subscriber who left and came back is the same lead).
 * Idempotent: a subscribed one stays as it is. An unsubscribed one is not subscribed again by an
 * old link (it signs up anew first). Undefined when the subscriber no longer exists.
 */
export async function confirm(db: Database, id: string): Promise<Change> {
  const [row] = await db.query<{ status: SubscriberStatus }>(
    `WITH changed AS (
       UPDATE public.newsletter_subscribers SET status = 'subscribed', confirmed_at = now()
       WHERE id = $1 AND status = 'pending'
       RETURNING *
     ), lead AS (
       SELECT * FROM changed
       WHERE NOT EXISTS (SELECT 1 FROM public.webhook_deliveries d WHERE d.lead_id = changed.id)
     ), events AS (${CONFIRMED_EVENTS})
     ${STATUS_AFTER}`,
    [id],
  );
  return row;
}

const CONFIRMED_EVENTS = queueLeadEventsStatement(
  newsletterLead.name,
  columnsOf(newsletterLead).map((c) => c.column),
  "lead",
);

/** The end of a status change: the changed row's status, or the unchanged row's. */
const STATUS_AFTER = `SELECT status FROM changed
     UNION ALL
     SELECT status FROM public.newsletter_subscribers
     WHERE id = $1 AND NOT EXISTS (SELECT 1 FROM changed)`;

/** Unsubscribes, whatever the status; idempotent (the first time is kept). */
export async function unsubscribe(db: Database, id: string): Promise<Change> {
  const [row] = await db.query<{ status: SubscriberStatus }>(
    `WITH changed AS (
       UPDATE public.newsletter_subscribers SET status = 'unsubscribed', unsubscribed_at = now()
       WHERE id = $1 AND status <> 'unsubscribed'
       RETURNING status
     )
     ${STATUS_AFTER}`,
    [id],
  );
  return row;
}

/** Deletes the addresses left unconfirmed PENDING_DAYS after their last sign-up; how many. */
export async function deleteUnconfirmed(db: Queryable): Promise<number> {
  const rows = await db.query(
    `DELETE FROM public.newsletter_subscribers
     WHERE status = 'pending' AND requested_at < now() - make_interval(days => $1) RETURNING id`,
    [PENDING_DAYS],
  );
  return rows.length;
}
