// /rest/v1: PostgREST-compatible inserts into the lead tables of the newsletter (a sign-up to
// confirm: newsletter/subscribers.ts) and the "Watch Demo" dialog (leads/kinds.ts REST_LEADS), refused reads, updates and deletes of those tables (as
// PostgREST refuses a role without the privilege), and reads of the `leads` view by team members
// on aal2 (team-access.ts) in PostgREST's syntax (read-query.ts).
import { Readable } from "node:stream";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import type { z } from "zod";
import { leadSourceSchema, type LeadSource } from "../../common/leads.ts";
import {
  columnsOf,
  LEAD_SOURCE_CHECK,
  newsletterLead,
  REST_LEADS,
  type RestLeadKind,
} from "../leads/kinds.ts";
import { storeLead } from "../leads/store.ts";
import { noStoreUnlessSet } from "../http/no-store.ts";
import { resendFailed } from "../mail/outbox.ts";
import { CONFIRM_EMAIL_KIND, CONFIRM_REPEAT_SECONDS } from "../newsletter/emails.ts";
import { signUp } from "../newsletter/subscribers.ts";
import { clientKey } from "../platform/addresses.ts";
import { everyValue, repeatedParams, type Query } from "../platform/query-string.ts";
import { isUuid } from "../platform/uuid.ts";
import { LIMITS } from "../platform/rate-limit.ts";
import { API_KEY_ROLES, bearerToken, type Claims } from "../security/tokens.ts";
import {
  GatewayError,
  PostgrestError,
  restErrorHandler,
  restNotFound,
  tokenRefusal,
} from "./errors.ts";
import { parsePrefer } from "./prefer.ts";
import { csvLine } from "./csv.ts";
import {
  EXPORT_BATCH,
  MAX_ROWS,
  planExport,
  planRead,
  rangeAnswer,
  EXPORT_AT,
  type ExportCursor,
  type ReadPlan,
} from "./read-query.ts";
import { assertConflictTarget, readLeadState, writeLeadState } from "./lead-states.ts";
import { assertTeamAdmin, assertTeamReader } from "./team-access.ts";
import { endpointIdFilter, readEndpointChange, readEndpointInsert } from "./webhook-endpoints.ts";
import { statsRange } from "./page-stats.ts";
import { pageStats } from "../analytics/page-views.ts";
import { changeEndpoint, ENV_ENDPOINT_ID, removeEndpoint } from "../webhooks/endpoints.ts";
import { oneRow } from "./one-row.ts";
import { READABLE, type ReadRelation } from "./readable.ts";
import { FUNCTION_METHODS, relationKind, relationMethods } from "./methods.ts";

/** A lead table as /rest/v1 exposes it: its kind, and what a row sent by a client may hold. */
type RestTable = {
  lead: RestLeadKind;
  /** Validates one row as sent by the client (its columns: the form's fields and `source`). */
  row: z.ZodType<{ email: string; source?: LeadSource }>;
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

/** Query parameters PostgREST reads once per request (the apikey is the gateway's: its first value). */
const SINGLE_PARAMS = new Set(["select", "columns", "on_conflict"]);

/** Query parameters of PostgREST's own, never a function's arguments (QueryParams.hs reserved). */
const RPC_RESERVED = /^(select|columns|on_conflict)$|(^|\.)(order|limit|offset|and|or)$/;

type TableRequest = FastifyRequest<{
  Params: { table: string };
  Querystring: Record<string, string | undefined>;
}>;

export default async function restRoutes(app: FastifyInstance) {
  app.setErrorHandler(restErrorHandler);
  app.setNotFoundHandler(restNotFound);
  noStoreUnlessSet(app);

  /** The gateway's key check, then the role of the request (PostgREST reads it from the JWT). */
  async function roleOf(request: TableRequest): Promise<string> {
    return (await claimsOf(request)).role!;
  }

  /** The claims of the request's role: its bearer token's, else its API key's. */
  async function claimsOf(request: TableRequest): Promise<Claims> {
    const apikey = (request.headers.apikey as string | undefined) ?? request.query.apikey;
    if (!apikey)
      throw new GatewayError(
        "No API key found in request",
        "No `apikey` request header or url param was found.",
      );
    const key = await app.tokens.verify(apikey);
    if (!key.ok || !API_KEY_ROLES.has(key.claims.role!)) {
      throw new GatewayError(
        "Invalid API key",
        "Double check your Supabase `anon` or `service_role` API key.",
      );
    }
    const token = bearerToken(request.headers.authorization);
    if (!token) return key.claims;
    const jwt = await app.tokens.verify(token);
    if (!jwt.ok) throw tokenRefusal(jwt.reason, token);
    return jwt.claims;
  }

  function tableOf(request: TableRequest): RestTable {
    assertProfile(request);
    // Own tables only: a name like `toString` is not a table.
    const name = request.params.table;
    const table = Object.hasOwn(REST_TABLES, name) ? REST_TABLES[name] : undefined;
    if (!table) throw relationNotFound(name);
    return table;
  }

  /**
   * The parameters a request reads. PostgREST parses each of them once; a repeat is refused as a
   * malformed query rather than guessed at (which `columns` would the client have meant?).
   */
  function queryParams(request: TableRequest) {
    for (const name of repeatedParams(request.query)) {
      if (SINGLE_PARAMS.has(name))
        throw new PostgrestError(
          400,
          "PGRST100",
          `failed to parse ${name} parameter: it is given more than once`,
          null,
          `Give ${name} once, with its values separated by commas`,
        );
    }
    const { select, columns, on_conflict: onConflict } = request.query;
    return { select, columns, onConflict };
  }

  /** PostgreSQL's refusal of a privilege, naming the relation as a table or a view. */
  const denied = (name: string, role: string) =>
    new PostgrestError(
      role === "anon" ? 401 : 403,
      "42501",
      `permission denied for ${relationKind(name)} ${name}`,
    );

  /**
   * Functions team members call (PostgREST's /rpc/): resending a failed email (members), and a
   * webhook delivery (admins). Each takes one id; each answers whether it was resent.
   */
  const FUNCTIONS: Record<
    string,
    { param: string; admin: boolean; run: (id: string) => Promise<boolean> }
  > = {
    resend_email: {
      param: "email_id",
      admin: false,
      async run(id) {
        const resent = await resendFailed(app.db, id);
        if (resent) app.mailer.flush();
        return resent;
      },
    },
    resend_webhook: { param: "delivery_id", admin: true, run: (id) => app.webhooks.resend(id) },
  };

  type RpcRequest = FastifyRequest<{
    Params: { fn: string };
    Querystring: Record<string, string | undefined>;
  }>;

  /**
   * The arguments of a call: a POST's JSON object, else the query's parameters (all but
   * PostgREST's own; the apikey is the gateway's, which removes it).
   */
  function argumentsOf(request: RpcRequest): Record<string, unknown> {
    if (request.method !== "POST")
      return Object.fromEntries(
        Object.entries(request.query).filter(
          ([name]) => name !== "apikey" && !RPC_RESERVED.test(name),
        ),
      );
    const body = request.body;
    return body !== null && typeof body === "object" ? (body as Record<string, unknown>) : {};
  }

  /** A function found by its name and its parameters' names (PostgREST's schema cache), or PGRST202. */
  function functionOf(request: RpcRequest, args: Record<string, unknown>) {
    const name = request.params.fn;
    const fn = Object.hasOwn(FUNCTIONS, name) ? FUNCTIONS[name] : undefined;
    const keys = Object.keys(args);
    if (fn && keys.length === 1 && keys[0] === fn.param) return fn;
    const named = keys.join(", ");
    const withParams = keys.length
      ? ` with parameter${keys.length > 1 ? "s" : ""} ${named}`
      : " without parameters";
    // A POST's JSON body may also be the one argument of a function taking a json parameter.
    const orJson =
      request.method === "POST" ? " or with a single unnamed json/jsonb parameter" : "";
    throw new PostgrestError(
      404,
      "PGRST202",
      `Could not find the function public.${name}${keys.length ? `(${named})` : withParams} in the schema cache`,
      `Searched for the function public.${name}${withParams}${orJson}, but no matches were found in the schema cache.`,
      fn ? `Perhaps you meant to call the function public.${name}(${fn.param})` : null,
    );
  }

  // A call: POST runs the function; GET and HEAD run it in a read-only transaction, where a
  // function that writes fails once it writes (after the checks of its privileges and argument).
  app.route<{ Params: { fn: string }; Querystring: Record<string, string | undefined> }>({
    method: ["GET", "POST"],
    url: "/rpc/:fn",
    async handler(request, reply) {
      const claims = await claimsOf(request as unknown as TableRequest);
      const args = argumentsOf(request);
      const fn = functionOf(request, args);
      await (fn.admin ? assertTeamAdmin : assertTeamReader)(
        app.db,
        claims,
        `function ${request.params.fn}`,
      );
      const id = args[fn.param];
      if (typeof id !== "string" || !isUuid(id))
        throw new PostgrestError(
          400,
          "22P02",
          `invalid input syntax for type uuid: "${typeof id === "string" ? id : JSON.stringify(id)}"`,
        );
      if (request.method !== "POST") {
        reply.header("allow", FUNCTION_METHODS);
        throw new PostgrestError(405, "25006", "cannot execute UPDATE in a read-only transaction");
      }
      return fn.run(id);
    },
  });

  // What a function takes, found as GET finds it (by the query's parameters).
  app.options<{ Params: { fn: string }; Querystring: Record<string, string | undefined> }>(
    "/rpc/:fn",
    async (request, reply) => {
      await claimsOf(request as unknown as TableRequest);
      functionOf(request, argumentsOf(request));
      return reply.header("allow", FUNCTION_METHODS).send();
    },
  );

  // Webhook endpoints, changed by admins (webhook-endpoints.ts reads the bodies and filters).
  const urlPolicy = { privateAllowed: app.config.webhookAllowPrivateAddresses };
  app.post("/webhook_endpoints", async (request, reply) => {
    const claims = await claimsOf(request as unknown as TableRequest);
    const { userId } = await assertTeamAdmin(app.db, claims, "table webhook_endpoints");
    const prefer = parsePrefer(request.headers.prefer);
    const row = await app.webhooks.add({
      ...readEndpointInsert(request.body, urlPolicy),
      by: userId,
    });
    await app.webhooks.refresh();
    reply.code(201);
    return prefer.return === "representation" ? asRequested(request, reply, [row]) : reply.send();
  });

  app.route<{ Querystring: Record<string, string | undefined> }>({
    method: ["PATCH", "DELETE"],
    url: "/webhook_endpoints",
    async handler(request, reply) {
      const claims = await claimsOf(request as unknown as TableRequest);
      await assertTeamAdmin(app.db, claims, "table webhook_endpoints");
      const verb = request.method === "PATCH" ? "UPDATE" : "DELETE";
      const id = endpointIdFilter(request.query, verb);
      if (id === ENV_ENDPOINT_ID)
        throw new PostgrestError(
          400,
          "23514",
          "This endpoint is LEAD_WEBHOOK_URL: it is changed in the server's configuration",
        );
      const row =
        verb === "UPDATE"
          ? await changeEndpoint(app.db, id, readEndpointChange(request.body, urlPolicy))
          : await removeEndpoint(app.db, id);
      await app.webhooks.refresh();
      if (parsePrefer(request.headers.prefer).return === "representation")
        return reply.code(200).send(asRequested(request, reply, row ? [row] : []));
      return reply.code(204).send();
    },
  });

  // Page statistics per day and page, for a range of days (analytics/page-views.ts).
  app.get<{ Querystring: Record<string, string | undefined> }>("/page_stats", async (request) => {
    const claims = await claimsOf(request as unknown as TableRequest);
    await assertTeamReader(app.db, claims, "view page_stats");
    const { from, to } = statsRange(everyValue(request.query as Query));
    return pageStats(app.db, from, to);
  });

  // A lead's status and note, written by team members (lead-states.ts).
  app.post<{ Querystring: Record<string, string | undefined> }>(
    "/lead_states",
    async (request, reply) => {
      const claims = await claimsOf(request as unknown as TableRequest);
      const { userId } = await assertTeamReader(app.db, claims, "table lead_states");
      const prefer = parsePrefer(request.headers.prefer);
      assertConflictTarget(request.query.on_conflict);
      const row = readLeadState(request.body);
      const state = await writeLeadState(app.db, row, userId, prefer.resolution);
      if (prefer.applied.length) reply.header("preference-applied", prefer.applied.join(", "));
      reply.code(201);
      return prefer.return === "representation"
        ? asRequested(request, reply, state ? [state] : [])
        : reply.send();
    },
  );

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
      if (!Object.hasOwn(REST_TABLES, request.params.table)) return refused(request);
      const role = await roleOf(request);
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
      if (table.lead === newsletterLead) {
        // A sign-up is stored whatever the email budget says; only its confirmation email is
        // budgeted (a spent budget sends none, and signing up again later sends it): decision 0030.
        const duplicate = await app.emailBudget.spend(
          request,
          {
            family: "lead",
            purpose: CONFIRM_EMAIL_KIND,
            to: row.email,
            repeatSeconds: CONFIRM_REPEAT_SECONDS,
          },
          (claim) =>
            signUp({
              db: app.db,
              input: row,
              source: row.source,
              config: app.config,
              links: app.newsletter.links,
              send: claim.ok && claim.send,
            }),
        );
        if (duplicate) throw duplicate;
      } else {
        const store = (reply: boolean) =>
          storeLead({
            db: app.db,
            kind: table.lead,
            input: row,
            source: row.source,
            config: app.config,
            events: app.webhooks.any(),
            returning: "none",
            reply,
          });
        const replies = table.lead.reply;
        if (!replies) await store(false);
        else
          await app.emailBudget.spend(
            request,
            {
              family: "lead",
              purpose: replies.purpose,
              to: replies.to(row),
              repeatSeconds: replies.repeatSeconds,
            },
            (claim) => {
              if (!claim.ok)
                throw new PostgrestError(
                  429,
                  "over_email_send_rate_limit",
                  "Email rate limit exceeded",
                  null,
                  "Wait an hour before trying again.",
                ).retryingAfter(claim.retryAfterSeconds);
              return store(claim.send);
            },
          );
      }
      app.mailer.flush();
      app.webhooks.flush();

      res.code(201).header("content-range", `*/${prefer.count === "exact" ? 1 : "*"}`);
      if (prefer.applied.length) res.header("preference-applied", prefer.applied.join(", "));
      return res.send();
    },
  );

  // Reading the team's views: members on aal2 only (team-access.ts), PostgREST's read syntax.
  app.get<{ Params: { table: string }; Querystring: Record<string, string | undefined> }>(
    "/:table",
    async (request, reply) => {
      const relation = Object.hasOwn(READABLE, request.params.table)
        ? READABLE[request.params.table]
        : undefined;
      if (!relation) return refused(request);
      const claims = await claimsOf(request);
      assertProfile(request);
      assertReadableAs(request.headers.accept);
      await assertTeamReader(app.db, claims, `view ${relation.name}`);
      if (/\btext\/csv\b/.test(request.headers.accept ?? ""))
        return exportCsv(relation, request, reply);
      const plan = planRead(relation, everyValue(request.query as Query), request.headers.range);
      const prefer = parsePrefer(request.headers.prefer);
      const [rows, total] = await Promise.all([
        app.db.query(plan.sql, plan.params),
        prefer.count && countOf(plan, prefer.count),
      ]);
      const answer = rangeAnswer(plan.offset, rows.length, total);
      if (answer.status === 416)
        throw new PostgrestError(
          416,
          "PGRST103",
          "Requested range not satisfiable",
          `An offset of ${plan.offset} was requested, but there are only ${total} rows.`,
        );
      reply.code(answer.status).header("content-range", answer.contentRange);
      if (prefer.applied.length) reply.header("preference-applied", prefer.applied.join(", "));
      return asRequested(request, reply, rows);
    },
  );

  /**
   * The count a reader asked for, as PostgREST counts: `exact` counts every matching row;
   * `planned` is the planner's estimate; `estimated` is exact up to the most rows one request
   * returns and the estimate beyond (a page of a million leads shows "about" instead of reading
   * them all).
   */
  async function countOf(plan: ReadPlan, how: "exact" | "planned" | "estimated") {
    const count = async (sql: string) =>
      (await app.db.query<{ n: number }>(sql, plan.countParams))[0]!.n;
    const planned = async () => {
      const [explained] = await app.db.query<{ "QUERY PLAN": [{ Plan: { "Plan Rows": number } }] }>(
        plan.plannedCountSql,
        plan.countParams,
      );
      return Math.round(explained!["QUERY PLAN"][0].Plan["Plan Rows"]);
    };
    if (how === "exact") return count(plan.countSql);
    if (how === "planned") return planned();
    const capped = await count(plan.cappedCountSql);
    return capped <= MAX_ROWS ? capped : Math.max(capped, await planned());
  }

  /**
   * The rows the filters select as a CSV download, streamed a batch at a time (memory stays one
   * batch, whatever the number of rows).
   */
  async function exportCsv(relation: ReadRelation, request: TableRequest, reply: FastifyReply) {
    const plan = planExport(relation, everyValue(request.query as Query));
    const db = app.db;
    const batch = (after?: ExportCursor) => {
      const { sql, params } = plan.batch(after);
      return db.query<Record<string, unknown>>(sql, params);
    };
    // The first batch is read before the answer starts: a filter value the database refuses (a
    // malformed id or date) is its 4xx, not a download cut short after its 200.
    const first = await batch();
    async function* lines() {
      yield csvLine(plan.columns);
      for (let rows = first; ;) {
        if (rows.length > 0) yield rows.map((r) => csvLine(plan.columns.map((c) => r[c]))).join("");
        if (rows.length < EXPORT_BATCH) return;
        const last = rows[rows.length - 1]!;
        rows = await batch({ at: last[EXPORT_AT] as string, id: last.id as string });
      }
    }
    const day = new Date().toISOString().slice(0, 10);
    return reply
      .type("text/csv; charset=utf-8")
      .header("content-disposition", `attachment; filename="${relation.name}-${day}.csv"`)
      .send(Readable.from(lines()));
  }

  /**
   * What a relation answers to what no role may do with it (a lead table read, changed or
   * deleted; a view of the team's or the statistics written; the lead states read): the
   * database's refusal of a privilege no role holds. Only a name that is no relation exposed here
   * is PostgREST's 404 (Response.hs: TableNotFound is the schema cache's answer, not a privilege's).
   */
  async function refused(request: TableRequest) {
    const role = await roleOf(request);
    const name = request.params.table;
    if (relationMethods(name)) assertProfile(request);
    else tableOf(request);
    queryParams(request);
    throw denied(name, role);
  }

  // What a relation takes, whoever asks (the gateway's key and a token are still checked).
  app.options<{ Params: { table: string }; Querystring: Record<string, string | undefined> }>(
    "/:table",
    async (request, reply) => {
      await claimsOf(request);
      assertProfile(request);
      const allow = relationMethods(request.params.table);
      if (!allow) throw relationNotFound(request.params.table);
      return reply.header("allow", allow).send();
    },
  );

  // Changing or deleting leads: no role has such a privilege here.
  app.route<{ Params: { table: string }; Querystring: Record<string, string | undefined> }>({
    method: ["PATCH", "PUT", "DELETE"],
    url: "/:table",
    handler: refused,
  });
  app.all("/*", restNotFound);
}

type Row = { email: string; source?: LeadSource };

/** PostgREST's 404 for a name that is no relation it exposes. */
const relationNotFound = (name: string) =>
  new PostgrestError(
    404,
    "PGRST205",
    `Could not find the table 'public.${name}' in the schema cache`,
  );

/** Only the public schema is exposed: another in Accept-Profile or Content-Profile is a 406. */
function assertProfile(request: FastifyRequest) {
  const profile = request.headers["content-profile"] ?? request.headers["accept-profile"];
  if (profile !== undefined && profile !== "public") {
    throw new PostgrestError(
      406,
      "PGRST106",
      `Invalid schema: ${String(profile)}`,
      null,
      "Only the following schemas are exposed: public",
    );
  }
}

/** The media types a read answers in: JSON, one JSON object (single()) and CSV. */
const READ_MEDIA = new Set([
  "*/*",
  "application/*",
  "application/json",
  "application/vnd.pgrst.object+json",
  "text/csv",
]);

/** An Accept header none of whose types a read answers in is PostgREST's 406. */
function assertReadableAs(accept: string | undefined) {
  if (!accept?.trim()) return;
  const types = accept.split(",").map((t) => t.split(";")[0]!.trim().toLowerCase());
  if (!types.some((t) => READ_MEDIA.has(t)))
    throw new PostgrestError(
      406,
      "PGRST107",
      `None of these media types are available: ${types.join(", ")}`,
    );
}

/**
 * Rows as PostgREST answers a read or a representation: an array, or the one object that
 * supabase-js's single() and maybeSingle() ask for (406 PGRST116 when there is not exactly one).
 */
function asRequested(request: FastifyRequest, reply: FastifyReply, rows: unknown[]) {
  if (!/\bapplication\/vnd\.pgrst\.object\+json\b/.test(request.headers.accept ?? "")) return rows;
  if (rows.length !== 1)
    throw new PostgrestError(
      406,
      "PGRST116",
      "Cannot coerce the result to a single JSON object",
      `The result contains ${rows.length} rows`,
    );
  reply.type("application/vnd.pgrst.object+json; charset=utf-8");
  return rows[0];
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
    throw new PostgrestError(
      400,
      "23502",
      `null value in column "email" of relation "${name}" violates not-null constraint`,
    );
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
