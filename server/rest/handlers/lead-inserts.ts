// Anonymous inserts into the lead tables (lead-tables.ts), one row per request as PostgREST takes
// it: checked against the form's schema and refused in PostgreSQL's words, nothing read back. The
// email the row asks for is spent from the lead forms' budget first (mail/email-budget.ts); over
// it, the row is refused or stored without its email, as its kind says. Then the kind stores the
// row: as every lead (leads/store.ts), or by its own insert (a newsletter sign-up).
import type { FastifyInstance, FastifyRequest } from "fastify";
import type { z } from "zod";
import { leadSourceSchema, type LeadSource } from "../../../common/leads.ts";
import { columnsOf, LEAD_SOURCE_CHECK, type RestLeadKind } from "../../leads/kinds.ts";
import { storeLead } from "../../leads/store.ts";
import { clientKey } from "../../platform/addresses.ts";
import { LIMITS } from "../../platform/rate-limit.ts";
import { PostgrestError } from "../errors.ts";
import { REST_LEADS } from "../lead-tables.ts";
import { notNullViolation, oneRow } from "../one-row.ts";
import { parsePrefer } from "../prefer.ts";
import {
  assertProfile,
  denied,
  queryParams,
  relationNotFound,
  roleOf,
  type TableRequest,
} from "../request.ts";
import { refuse } from "./refused.ts";

type Row = { email: string; source?: LeadSource };

/** A lead table as /rest/v1 exposes it: its kind, and what a row sent by a client may hold. */
type RestTable = {
  lead: RestLeadKind;
  /** Validates one row as sent by the client (its columns: the form's fields and `source`). */
  row: z.ZodType<Row>;
  /** Columns a client may write, and the ones an insert returns. */
  writable: readonly string[];
  readable: readonly string[];
};

const REST_TABLES: Record<string, RestTable> = Object.fromEntries(
  Object.entries(REST_LEADS).map(([name, lead]) => {
    const fields = columnsOf(lead).map((c) => c.column);
    const table: RestTable = {
      lead,
      row: lead.schema.extend({ source: leadSourceSchema.strict().optional() }).strict(),
      writable: [...fields, "source"],
      readable: ["id", ...fields, "created_at", "source"],
    };
    return [name, table];
  }),
);

function tableOf(request: TableRequest): RestTable {
  assertProfile(request);
  // Own tables only: a name like `toString` is not a table.
  const name = request.params.table;
  const table = Object.hasOwn(REST_TABLES, name) ? REST_TABLES[name] : undefined;
  if (!table) throw relationNotFound(name);
  return table;
}

export default async function leadInserts(app: FastifyInstance) {
  app.post<{ Params: { table: string }; Querystring: Record<string, string | undefined> }>(
    "/:table",
    {
      config: {
        rateLimit: {
          ...LIMITS.form,
          keyGenerator: (r: FastifyRequest) =>
            `rest:${(r.params as { table: string }).table}:${clientKey(r.ip)}`,
        },
      },
    },
    async (request, res) => {
      if (!Object.hasOwn(REST_TABLES, request.params.table)) return refuse(app, request);
      const role = await roleOf(app, request);
      const table = tableOf(request);
      const name = request.params.table;
      const query = queryParams(request);
      const prefer = parsePrefer(request.headers.prefer);
      if (prefer.resolution || query.onConflict !== undefined) throw denied(name, role); // an upsert needs UPDATE
      if (prefer.return !== "minimal") {
        // The row back (representation) or its location (headers-only) is a read, which no role
        // may do here: refused as PostgreSQL refuses RETURNING without SELECT, nothing written.
        if (prefer.return === "representation") assertColumnsExist(query.select, table, name);
        throw denied(name, role);
      }

      const row = parseRow(request.body, query.columns, table, name);
      const { refusal, repeat, id } = await insert(app, request, table.lead, row);
      if (refusal) throw refusal;
      if (id) app.pageViews.converted(request, { id, path: row.source?.page });
      app.mailer.flush();
      app.webhooks.flush();

      // A repeat within the kind's window merges into the request before it and sends nothing
      // new: 200, as PostgREST answers a POST that created no row; 201 when the email goes.
      res
        .code(repeat ? 200 : 201)
        .header("content-range", `*/${prefer.count === "exact" ? 1 : "*"}`);
      if (prefer.applied.length) res.header("preference-applied", prefer.applied.join(", "));
      return res.send();
    },
  );
}

/**
 * Spends the email the row asks for, then has its kind store it (`send`: the email may go). What
 * to refuse once the budget is settled (a repeated sign-up), if anything, whether the row
 * repeats one asked within the kind's window (its email not sent again), and the id of the row
 * that holds the request.
 */
function insert(
  app: FastifyInstance,
  request: FastifyRequest,
  kind: RestLeadKind,
  row: Row,
): Promise<{ refusal: unknown; repeat: boolean; id: string | undefined }> {
  const { budget } = kind;
  return app.emailBudget.spend(
    request,
    {
      family: "lead",
      purpose: budget.purpose,
      to: budget.to(row),
      repeatSeconds: budget.repeatSeconds,
    },
    async (claim) => {
      if (!claim.ok && budget.over === "refuse")
        throw new PostgrestError(
          429,
          "over_email_send_rate_limit",
          "Email rate limit exceeded",
          null,
          "Wait an hour before trying again.",
        ).retryingAfter(claim.retryAfterSeconds);
      const send = claim.ok && claim.send;
      const repeat = claim.ok && !claim.send;
      if (kind.insert) {
        const { refusal, id } = await kind.insert(app, row, send);
        return { refusal, repeat, id };
      }
      const { id } = await storeLead({
        db: app.db,
        kind,
        input: row,
        source: row.source,
        config: app.config,
        timeZone: app.teamTimeZone.current(),
        events: app.webhooks.any(),
        reply: send,
      });
      return { refusal: undefined, repeat, id };
    },
  );
}

/** The body as one row (one-row.ts), restricted to `columns=` when given. */
function parseRow(
  body: unknown,
  columnsParam: string | undefined,
  table: RestTable,
  name: string,
): Row {
  const raw = oneRow(body);
  const columns = columnsParam?.split(",").map((c) => c.trim().replace(/^"|"$/g, ""));
  for (const column of columns ?? Object.keys(raw)) {
    if (!table.writable.includes(column)) {
      throw new PostgrestError(
        400,
        "PGRST204",
        `Could not find the '${column}' column of '${name}' in the schema cache`,
      );
    }
  }
  const row = columns
    ? Object.fromEntries(columns.filter((c) => c in raw).map((c) => [c, raw[c]]))
    : raw;
  if (row.email === undefined || row.email === null) {
    throw notNullViolation(name, "email");
  }
  const parsed = table.row.safeParse(row);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const column = String(issue.path[0] ?? "email");
    const constraint = column === "source" ? LEAD_SOURCE_CHECK : table.lead.check;
    throw new PostgrestError(
      400,
      "23514",
      `new row for relation "${name}" violates check constraint "${constraint}"`,
      issue.message,
    );
  }
  return parsed.data;
}

/** A `select=` naming columns the table does not have is refused first, as PostgreSQL would. */
function assertColumnsExist(select: string | undefined, table: RestTable, name: string) {
  if (!select || select.trim() === "*") return;
  for (const column of select.split(",").map((c) => c.trim())) {
    if (!table.readable.includes(column))
      throw new PostgrestError(400, "42703", `column ${name}.${column} does not exist`);
  }
}
