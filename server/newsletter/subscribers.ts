// The newsletter's subscribers (public.newsletter_subscribers, decision 0030), and the newsletter
// as a lead kind: a row a visitor sends is a sign-up (the kind's own insert, signUp), pending, and
// emails a confirmation; confirming subscribes and sends the lead to the CRM (its
// webhook events, once per subscriber); unsubscribing keeps the address, marked, so nothing is
// sent to it again; an address unconfirmed 30 days after its last sign-up is deleted. Only this
// module changes a subscriber's status.
import crypto from "node:crypto";
import { NEWSLETTER_PENDING, newsletterSchema, type LeadSource } from "../../common/leads.ts";
import type { Config } from "../config.ts";
import { isUniqueViolation, type Database, type Queryable } from "../db/database.ts";
import { columnsOf, type RestLeadKind } from "../leads/kinds.ts";
import { storeLead } from "../leads/store.ts";
import { emailsParameter, enqueue, queueEmailsStatement } from "../mail/outbox.ts";
import { queueLeadEventsStatement } from "../webhooks/events.ts";
import {
  CONFIRM_EMAIL_KIND,
  CONFIRM_REPEAT_SECONDS,
  confirmationEmail,
  welcomeEmail,
} from "./emails.ts";
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
 * claim back: mail/email-budget.ts). The subscriber's id comes back with the answer.
 */
export async function signUp(opts: {
  db: Database;
  input: { email: string };
  source: LeadSource | undefined;
  config: Config;
  links: NewsletterLinks;
  send: boolean;
}): Promise<{ refusal?: unknown; id?: string }> {
  const { db, input, links } = opts;
  const made = crypto.randomUUIDv7();
  try {
    const { id } = await storeLead({
      db,
      kind: newsletterLead,
      input,
      source: opts.source,
      config: opts.config,
      // A sign-up tells the team nothing of its own (a digest lists the confirmed ones).
      timeZone: opts.config.teamTimeZone,
      events: false,
      linked: opts.send
        ? { id: made, email: confirmationEmail(input.email, made, links) }
        : undefined,
    });
    return { id };
  } catch (err) {
    if (!isUniqueViolation(err)) throw err;
    const { status, id } = await db.transaction(async (tx) => {
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
      if (!known || known.status === "subscribed") return { status: "subscribed" as const };
      if (opts.send)
        await tx.query(`WITH lead AS (SELECT $1::uuid AS id) ${queueEmailsStatement(2, "lead")}`, [
          known.id,
          emailsParameter([confirmationEmail(input.email, known.id, links)]),
        ]);
      return { status: known.status, id: known.id };
    });
    // Subscribed already: nothing was queued, so the duplicate is thrown (and the email budget's
    // claim given back). Pending: its confirmation is queued and committed, so it is returned,
    // saying whether it was sent again.
    if (status === "subscribed") throw err;
    if (status === "pending")
      return {
        refusal: Object.assign(err as Error, {
          detail: opts.send ? NEWSLETTER_PENDING.resent : NEWSLETTER_PENDING.waiting,
        }),
        id,
      };
    return { id };
  }
}

/** The subscriber's status after the change; undefined when there is no such subscriber. */
export type Change = { status: SubscriberStatus } | undefined;

/**
 * Confirms a pending subscriber: subscribed from now, its lead.created events queued in the same
 * statement, unless it has had them (a subscriber who left and came back is the same lead), and
 * its welcome email in the same transaction. Idempotent: a subscribed one stays as it is (and is
 * welcomed once). An unsubscribed one is not subscribed again by an old link (it signs up anew
 * first). Undefined when the subscriber no longer exists.
 */
export async function confirm(db: Database, id: string, links: NewsletterLinks): Promise<Change> {
  return db.transaction(async (tx) => {
    const [row] = await tx.query<{ status: SubscriberStatus; welcome: string | null }>(
      `WITH changed AS (
         UPDATE public.newsletter_subscribers SET status = 'subscribed', confirmed_at = now()
         WHERE id = $1 AND status = 'pending'
         RETURNING *
       ), lead AS (
         SELECT * FROM changed
         WHERE NOT EXISTS (SELECT 1 FROM public.webhook_deliveries d WHERE d.lead_id = changed.id)
       ), events AS (${CONFIRMED_EVENTS})
       SELECT after.status, (SELECT email FROM changed) AS welcome FROM (${STATUS_AFTER}) after`,
      [id],
    );
    if (row?.welcome) await enqueue(tx, welcomeEmail(row.welcome, id, links));
    return row && { status: row.status };
  });
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

/** Why an address stopped receiving the newsletter (newsletter_subscribers.unsubscribe_reason). */
export type UnsubscribeReason = "unsubscribed" | "team" | "bounced" | "complained";

/**
 * Unsubscribes, whatever the status; idempotent (the first time and its reason are kept). Left
 * through an issue's link (`issue`), the issue counts it among its figures.
 */
export async function unsubscribe(
  db: Queryable,
  id: string,
  reason: UnsubscribeReason,
  issue?: string,
): Promise<Change> {
  const [row] = await db.query<{ status: SubscriberStatus }>(
    `WITH changed AS (
       UPDATE public.newsletter_subscribers
       SET status = 'unsubscribed', unsubscribed_at = now(), unsubscribe_reason = $2
       WHERE id = $1 AND status <> 'unsubscribed'
       RETURNING status
     ), counted AS (
       UPDATE public.newsletter_sends SET unsubscribed_at = now()
       WHERE issue_id = $3 AND subscriber_id = $1 AND EXISTS (SELECT 1 FROM changed)
     )
     ${STATUS_AFTER}`,
    [id, reason, issue ?? null],
  );
  return row;
}

/**
 * The mail provider's word on an address: a hard bounce or a complaint turns it off (the reason
 * kept), and the copy it names (its outbox id, from the Message-ID) counts as bounced. False when
 * the address is not a subscriber's.
 */
export async function turnOff(
  db: Queryable,
  event: { email: string; reason: "bounced" | "complained"; emailId: string | undefined },
): Promise<boolean> {
  const rows = await db.query(
    `WITH known AS (
       SELECT id FROM public.newsletter_subscribers WHERE lower(email) = lower($1)
     ), changed AS (
       UPDATE public.newsletter_subscribers s
       SET status = 'unsubscribed', unsubscribed_at = now(), unsubscribe_reason = $2
       FROM known WHERE s.id = known.id AND s.status <> 'unsubscribed'
     ), bounced AS (
       UPDATE public.newsletter_sends SET bounced_at = COALESCE(bounced_at, now())
       WHERE $2 = 'bounced' AND email_id = $3 AND subscriber_id IN (SELECT id FROM known)
     )
     SELECT id FROM known`,
    [event.email, event.reason, event.emailId ?? null],
  );
  return rows.length > 0;
}

/**
 * A deletion request: the address goes, with the record of the issues sent to it and its copies
 * not yet sent. False when there was no such subscriber.
 */
export async function deleteSubscriber(db: Queryable, id: string): Promise<boolean> {
  const rows = await db.query(
    `WITH unsent AS (
       DELETE FROM mail.outbox o USING public.newsletter_sends s
       WHERE s.subscriber_id = $1 AND o.id = s.email_id AND o.sent_at IS NULL
     )
     DELETE FROM public.newsletter_subscribers WHERE id = $1 RETURNING id`,
    [id],
  );
  return rows.length === 1;
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
