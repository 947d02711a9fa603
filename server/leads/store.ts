// Storing a lead: its row, the emails its kind causes and its webhook events (one per enabled
// endpoint, while any is enabled: webhooks/endpoints.ts), written by one statement, so a lead, its
// emails and its deliveries are stored together or not at all. A row with neither shares its
// statement with the rows of its kind asked meanwhile (db/insert-batches.ts, decision 0066). REST
// inserts and the server functions both store leads here; the caller spends the email budget for
// a reply first (mail/email-budget.ts).
import type { z } from "zod";
import type { LeadSource } from "../../common/leads.ts";
import type { Config } from "../config.ts";
import { isDatabase, type Database, type Queryable } from "../db/database.ts";
import { InsertBatches } from "../db/insert-batches.ts";
import { emailsParameter, queueEmailsStatement, type Email } from "../mail/outbox.ts";
import { queueLeadEventsStatement } from "../webhooks/events.ts";
import { notifyTeam } from "./emails.ts";
import { uuidV7At } from "../platform/uuid.ts";
import { columnsOf, type LeadKind, type LeadSchema } from "./kinds.ts";
import { leadsStored } from "../metrics/metrics.ts";

/** The columns of each kind, in the order of the statement's first parameters. */
const columns = new WeakMap<LeadKind, { column: string; field: string }[]>();

function columnsFor(kind: LeadKind) {
  let list = columns.get(kind);
  if (!list) columns.set(kind, (list = columnsOf(kind)));
  return list;
}

/** The columns every insert of a kind writes, in the order of its values (storeLead). */
const rowColumns = (kind: LeadKind) => ["id", ...columnsFor(kind).map((c) => c.column), "source"];

/** Each database's batches of each kind's rows stored alone (insert-batches.ts). */
const batches = new WeakMap<Database, Map<LeadKind, InsertBatches>>();

function batchesFor(db: Database, kind: LeadKind): InsertBatches {
  let byKind = batches.get(db);
  if (!byKind) batches.set(db, (byKind = new Map()));
  let kindBatches = byKind.get(kind);
  if (!kindBatches) {
    byKind.set(
      kind,
      (kindBatches = new InsertBatches(db, `public.${kind.table}`, rowColumns(kind))),
    );
  }
  return kindBatches;
}

/** The column of a kind with a reply that holds the time of its latest request (migration 0024). */
export const RENEWED = "last_requested_at";

/**
 * The statements of a kind, built once per shape (they depend only on the kind's columns and
 * whether emails and events are queued): a lead is stored on every form post.
 */
const statements = new WeakMap<LeadKind, Map<string, string>>();

function statementFor(kind: LeadKind, opts: { withEmails: boolean; withEvents: boolean }) {
  let byShape = statements.get(kind);
  if (!byShape) statements.set(kind, (byShape = new Map()));
  const shape = `${opts.withEmails}:${opts.withEvents}`;
  let sql = byShape.get(shape);
  if (sql === undefined) {
    // The id is made here (storeLead). With emails, the row's time is the one they show; without,
    // the database's default.
    const names = [...rowColumns(kind), ...(opts.withEmails ? ["created_at"] : [])];
    // A kind that replies keeps its first row per address (its unique index): a repeat only
    // renews the row's last request (the lead's last contact), and queues no event.
    const repeat = kind.reply
      ? ` ON CONFLICT ((lower(email))) DO UPDATE SET ${RENEWED} = now()`
      : "";
    const insert = `INSERT INTO public.${kind.table} (${names.join(", ")}) VALUES (${names.map((_, i) => `$${i + 1}`).join(", ")})${repeat}`;
    // Only a repeat's row has an id other than the one made: only then is it read back (reading a
    // row back costs an embedded insert a fifth more).
    if (!opts.withEmails && !opts.withEvents) {
      sql = `${insert}${kind.reply ? " RETURNING id" : ""}`;
    } else {
      const mail = opts.withEmails
        ? `, mail AS (${queueEmailsStatement(names.length + 1, "lead")})`
        : "";
      const events = opts.withEvents
        ? `, events AS (${queueLeadEventsStatement(
            kind.name,
            columnsFor(kind).map((c) => c.column),
            kind.reply ? "(SELECT * FROM lead WHERE created)" : "lead",
          )})`
        : "";
      const back = kind.reply ? "SELECT id FROM lead" : "SELECT";
      // A row inserted has no updating transaction (xmax 0); a renewed one has this one.
      const created = kind.reply ? ", (xmax = 0) AS created" : "";
      sql = `WITH lead AS (${insert} RETURNING ${opts.withEvents ? "*" : "id, created_at"}${created})${mail}${events} ${back}`;
    }
    byShape.set(shape, sql);
  }
  return sql;
}

/**
 * Inserts the lead and queues its emails and webhook events in one statement: atomic on its own
 * (no transaction needed), and inside the caller's transaction when `db` is one. `reply` says
 * whether the visitor's email goes out: only when the caller spent the email budget for it (a
 * repeat spends nothing and sends nothing). The id of the row that holds the lead comes back:
 * the one made here, or a repeat's first row's.
 */
export async function storeLead<S extends LeadSchema>(opts: {
  db: Queryable;
  kind: LeadKind<S>;
  input: z.output<S>;
  source: LeadSource | undefined;
  config: Config;
  /** The team's time zone, which its notification says the lead's time in (team/time-zone.ts). */
  timeZone: string;
  reply?: boolean;
  /** Whether to queue the lead's webhook events: an endpoint may be enabled (webhooks.any()). */
  events: boolean;
  /**
   * The new row's id, made by the caller when an email it queues links to the row (the
   * newsletter's confirmation), with that email.
   */
  linked?: { id: string; email: Email };
}): Promise<{ id: string }> {
  const { kind, input, source, config } = opts;
  const receivedAt = new Date();
  // Made here: the team's email links to the lead, and an insert that reads nothing back is cheaper.
  const id = opts.linked?.id ?? uuidV7At(receivedAt);
  const emails = [
    ...(kind.notification
      ? [
          notifyTeam(kind.notification, input, {
            receivedAt,
            source,
            config,
            leadId: id,
            timeZone: opts.timeZone,
          }),
        ]
      : []),
    ...(kind.reply && opts.reply ? [kind.reply.compose(input, config)] : []),
    ...(opts.linked ? [opts.linked.email] : []),
  ];
  // An optional text left empty (the Request Demo page's website) is stored as NULL.
  const fields = input as Record<string, unknown>;
  const values: unknown[] = [id];
  for (const { field } of columnsFor(kind))
    values.push(fields[field] === "" ? null : fields[field]);
  values.push(JSON.stringify(source ?? {}));
  let stored = id;
  if (emails.length === 0 && !opts.events && !kind.reply && isDatabase(opts.db)) {
    // A row alone (nothing else written with it, nothing read back): it may share a statement.
    await batchesFor(opts.db, kind).insert(values);
  } else {
    const sql = statementFor(kind, { withEmails: emails.length > 0, withEvents: opts.events });
    const [lead] = await opts.db.query<{ id: string }>(
      sql,
      emails.length === 0 ? values : [...values, receivedAt, emailsParameter(emails)],
    );
    stored = lead?.id ?? id;
  }
  // Counted once committed: at once on its own, after the caller's transaction commits when `db`
  // is one (a transaction that fails after the statement stores nothing, and counts nothing).
  opts.db.afterCommit(() => leadsStored.inc({ form: kind.name }));
  return { id: stored };
}
