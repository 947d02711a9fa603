// The team's digests of the leads that email it nothing of their own: "Watch Demo" requests and
// confirmed newsletter subscribers (decision 0030). Anyone can make such leads, so the team gets
// at most one email per kind per LEAD_DIGEST_SECONDS, listing every lead since the last one.
// mail.lead_digests holds, per kind, the time its leads were listed up to: a digest is queued in
// the transaction that moves that time on, under the row's lock (SKIP LOCKED: another instance
// passes), so it is sent once whichever instance runs it, and after a restart the next digest
// starts where the last one ended.
import type { LeadKindName } from "../../common/workspace.ts";
import type { Config } from "../config.ts";
import type { Database } from "../db/database.ts";
import { enqueue, type Email } from "../mail/outbox.ts";
import { actionEmail, teamTime } from "../mail/templates.ts";
import { teamDay } from "./due-reminders.ts";

/** The most leads one digest names; it counts the rest. */
const DIGEST_LIST = 100;

type Digest = {
  kind: LeadKindName;
  /** The email's kind in mail.outbox. */
  emailKind: string;
  subject(n: number): string;
  intro: string;
  /** The leads whose time is in ($1, $2], oldest first, at most $3, each with the total. */
  sql: string;
};

export const DIGESTS: readonly Digest[] = [
  {
    kind: "watch_demo",
    emailKind: "digest-watch-demo",
    subject: (n) => `${n} new Watch Demo request${n === 1 ? "" : "s"}`,
    intro: "These addresses asked for the product tour with the Watch Demo dialog:",
    sql: `SELECT email, created_at AS at, count(*) OVER ()::int AS total FROM public.demo_requests
          WHERE created_at > $1 AND created_at <= $2 ORDER BY created_at LIMIT $3`,
  },
  {
    kind: "newsletter",
    emailKind: "digest-newsletter",
    subject: (n) => `${n} new newsletter subscriber${n === 1 ? "" : "s"}`,
    intro: "These addresses confirmed their newsletter subscription:",
    sql: `SELECT email, confirmed_at AS at, count(*) OVER ()::int AS total
          FROM public.newsletter_subscribers
          WHERE status = 'subscribed' AND confirmed_at > $1 AND confirmed_at <= $2
          ORDER BY confirmed_at LIMIT $3`,
  },
];

/**
 * Leads younger than this are left for the next digest: a lead's time is set when its statement
 * starts (by the database, or by the instance's clock for a lead with emails), so one committed a
 * moment later, or stamped by a clock a little behind, still falls after the time covered.
 */
function settleSeconds(config: Config): number {
  return Math.min(30, config.leadDigestMs / 1000);
}

type DueWindow = { covered_until: Date; until: Date };

/** A kind's leads to list, ($1, $2] of its digest's query, when its interval has passed. */
const DUE_WINDOW = `SELECT covered_until, now() - make_interval(secs => $3) AS until
  FROM mail.lead_digests
  WHERE kind = $1 AND (sent_at IS NULL OR sent_at <= now() - make_interval(secs => $2))`;

const dueWindowParams = (digest: Digest, config: Config) => [
  digest.kind,
  config.leadDigestMs / 1000,
  settleSeconds(config),
];

/**
 * Queues the kind's digest if one is due (none queued within the interval) and it has leads;
 * the number of leads it lists (0: nothing queued).
 */
export async function runDigest(
  db: Database,
  digest: Digest,
  config: Config,
  timeZone: string,
): Promise<number> {
  return db.transaction(async (tx) => {
    const [due] = await tx.query<DueWindow>(
      `${DUE_WINDOW} FOR UPDATE SKIP LOCKED`,
      dueWindowParams(digest, config),
    );
    if (!due) return 0;
    const leads = await tx.query<{ email: string; at: Date; total: number }>(digest.sql, [
      due.covered_until,
      due.until,
      DIGEST_LIST,
    ]);
    if (leads.length === 0) return 0;
    await enqueue(tx, digestEmail(digest, leads, config, timeZone));
    await tx.query(
      "UPDATE mail.lead_digests SET covered_until = $2, sent_at = now() WHERE kind = $1",
      [digest.kind, due.until],
    );
    return leads.length;
  });
}

/**
 * How many kinds have a digest due now: their interval passed and leads wait to be listed (the
 * next run queues it). One that stays due for long has a run that keeps failing.
 */
export async function countDigestsDue(db: Database, config: Config): Promise<number> {
  let due = 0;
  for (const digest of DIGESTS) {
    const [window] = await db.query<DueWindow>(DUE_WINDOW, dueWindowParams(digest, config));
    if (window && (await db.query(digest.sql, [window.covered_until, window.until, 1])).length)
      due += 1;
  }
  return due;
}

function digestEmail(
  digest: Digest,
  leads: { email: string; at: Date; total: number }[],
  config: Config,
  timeZone: string,
): Email {
  const total = leads[0]!.total;
  const more = total - leads.length;
  return actionEmail({
    kind: digest.emailKind,
    to: config.notifyEmail,
    subject: digest.subject(total),
    heading: digest.subject(total),
    paragraphs: [
      digest.intro,
      ...leads.map((l) => `${l.email} (${teamTime(l.at, timeZone)})`),
      ...(more > 0 ? [`…and ${more} more.`] : []),
    ],
    // The inbox filtered to the kind's leads of the days the digest lists.
    action: {
      label: "Open these leads",
      url: `${config.siteUrl}/team#inbox?${new URLSearchParams({
        kind: digest.kind,
        from: teamDay(leads[0]!.at, timeZone)[0],
      }).toString()}`,
    },
  });
}
