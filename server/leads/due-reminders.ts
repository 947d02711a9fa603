// Each member's daily email of the leads they own whose next step is due today or overdue, in
// the team's time zone (TEAM_TIME_ZONE), from 8 in the morning: one per member per day, through
// the outbox. The day's row in mail.due_reminders is written in the transaction that queues the
// email (ON CONFLICT DO NOTHING: another instance that got there first wrote it), so each member
// gets it once whichever instance runs the job. Won, lost and junk leads are done: none is listed.
import type { Config } from "../config.ts";
import type { Database } from "../db/database.ts";
import { enqueue, type Email } from "../mail/outbox.ts";
import { actionEmail } from "../mail/templates.ts";

/** The most leads one email names; it counts the rest. */
const LISTED = 50;

/** From this hour of the team's day, the day's emails are sent. */
const SEND_FROM_HOUR = 8;

/** The day and hour in `timeZone` at `at`: ["2026-11-29", 8]. */
export function teamDay(at: Date, timeZone: string): [string, number] {
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat("en-CA", {
      timeZone,
      year: "numeric",
      month: "2-digit",
      day: "2-digit",
      hour: "2-digit",
      hourCycle: "h23",
    })
      .formatToParts(at)
      .map((p) => [p.type, p.value]),
  );
  return [`${parts.year}-${parts.month}-${parts.day}`, Number(parts.hour)];
}

type DueLead = {
  id: string;
  name: string;
  next_step: string;
  due_on: string;
  total: number;
};

/**
 * Queues today's email to each member with due or overdue leads who has none yet; how many were
 * queued. Before SEND_FROM_HOUR in the team's time zone, nothing.
 */
export async function runDueReminders(
  db: Database,
  config: Config,
  timeZone: string,
  now = new Date(),
): Promise<number> {
  const [day, hour] = teamDay(now, timeZone);
  if (hour < SEND_FROM_HOUR) return 0;
  // The owners first (by the open leads' due-date index), then each one's address by id (the
  // LIMIT keeps the lookup a lookup, not a read of every account to join).
  const owners = await db.query<{ owner_id: string; email: string }>(
    `SELECT o.owner_id, u.email FROM (
       SELECT DISTINCT s.owner_id FROM public.lead_states s
       WHERE s.due_on <= $1::date AND s.due_on IS NOT NULL AND s.owner_id IS NOT NULL
         AND s.status NOT IN ('won', 'lost', 'junk')
         AND NOT EXISTS (
           SELECT 1 FROM mail.due_reminders r WHERE r.user_id = s.owner_id AND r.day = $1::date
         )
     ) AS o
     CROSS JOIN LATERAL (
       SELECT u.email FROM auth.users u WHERE u.id = o.owner_id AND u.deleted_at IS NULL LIMIT 1
     ) AS u`,
    [day],
  );
  let queued = 0;
  for (const owner of owners)
    queued += await db.transaction(async (tx) => {
      const [claimed] = await tx.query(
        `INSERT INTO mail.due_reminders (user_id, day) VALUES ($1, $2::date)
         ON CONFLICT DO NOTHING RETURNING 1`,
        [owner.owner_id, day],
      );
      if (!claimed) return 0;
      const leads = await tx.query<DueLead>(
        `SELECT l.id, coalesce(l.name, l.email) AS name, l.next_step,
           to_char(l.due_on, 'YYYY-MM-DD') AS due_on, count(*) OVER ()::int AS total
         FROM public.lead_states s
         JOIN public.leads l ON l.kind = s.kind AND l.id = s.lead_id
         WHERE s.owner_id = $1 AND s.due_on <= $2::date AND s.due_on IS NOT NULL
           AND s.status NOT IN ('won', 'lost', 'junk')
         ORDER BY s.due_on, l.created_at LIMIT $3`,
        [owner.owner_id, day, LISTED],
      );
      if (leads.length === 0) return 0;
      await enqueue(tx, dueEmail(owner, leads, day, config));
      return 1;
    });
  return queued;
}

function dueEmail(
  owner: { owner_id: string; email: string },
  leads: DueLead[],
  day: string,
  config: Config,
): Email {
  const total = leads[0]!.total;
  const overdue = leads.filter((l) => l.due_on < day).length;
  const subject = `${total} lead${total === 1 ? "" : "s"} due today${overdue ? ` (${overdue} overdue)` : ""}`;
  const more = total - leads.length;
  return actionEmail({
    kind: "due-reminder",
    to: owner.email,
    subject,
    heading: subject,
    paragraphs: [
      "The next steps of these leads of yours are due today or overdue:",
      ...leads.map(
        (l) =>
          `${l.name}: ${l.next_step}, due ${l.due_on}${l.due_on < day ? " (overdue)" : ""} — ${config.siteUrl}/team#inbox/lead/${l.id}`,
      ),
      ...(more > 0 ? [`…and ${more} more.`] : []),
    ],
    action: {
      label: "Open my leads",
      url: `${config.siteUrl}/team#inbox?owner=${owner.owner_id}`,
    },
  });
}
