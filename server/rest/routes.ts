// /rest/v1: PostgREST-compatible inserts into the site's lead tables. Insert only: reading,
// updating and deleting are refused as PostgREST refuses a role without the privilege.
import type { FastifyInstance, FastifyRequest } from "fastify";
import type { LeadSource } from "../../common/leads.ts";
import { LIMITS } from "../platform/rate-limit.ts";
import type { Queryable } from "../db/database.ts";
import { storeLead, type StoredLead } from "../leads/lead-kinds.ts";
import { API_KEY_ROLES, bearerToken, verifyJwt } from "../security/api-jwt.ts";
import {
  GatewayError,
  PostgrestError,
  restErrorHandler,
  restNotFound,
  sendPostgrestError,
} from "./errors.ts";
import { parsePrefer } from "./prefer.ts";
import { REST_TABLES, type RestTable } from "./tables.ts";

const MAX_ROWS = 50;

type TableRequest = FastifyRequest<{
  Params: { table: string };
  Querystring: Record<string, string | undefined>;
}>;

export default async function restRoutes(app: FastifyInstance) {
  app.setErrorHandler(restErrorHandler);
  app.setNotFoundHandler(restNotFound);

  /** The gateway's key check, then the role of the request (PostgREST reads it from the JWT). */
  async function roleOf(request: TableRequest): Promise<string> {
    const apikey = (request.headers.apikey as string | undefined) ?? request.query.apikey;
    if (!apikey)
      throw new GatewayError(
        "No API key found in request",
        "No `apikey` request header or url param was found.",
      );
    const key = await verifyJwt(apikey, app.keys.jwtSecret);
    if (!key.ok || !API_KEY_ROLES.has(key.claims.role!)) {
      throw new GatewayError(
        "Invalid API key",
        "Double check your Supabase `anon` or `service_role` API key.",
      );
    }
    const token = bearerToken(request.headers.authorization);
    if (!token) return key.claims.role!;
    const jwt = await verifyJwt(token, app.keys.jwtSecret);
    if (!jwt.ok) {
      throw jwt.reason === "expired"
        ? new PostgrestError(401, "PGRST303", "JWT expired")
        : new PostgrestError(401, "PGRST301", "No suitable key or wrong key type");
    }
    return jwt.claims.role!;
  }

  function tableOf(request: TableRequest): RestTable {
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
    const table = REST_TABLES[request.params.table];
    if (!table) {
      throw new PostgrestError(
        404,
        "PGRST205",
        `Could not find the table 'public.${request.params.table}' in the schema cache`,
      );
    }
    return table;
  }

  const denied = (name: string, role: string) =>
    new PostgrestError(role === "anon" ? 401 : 403, "42501", `permission denied for table ${name}`);

  app.post<{ Params: { table: string }; Querystring: Record<string, string | undefined> }>(
    "/:table",
    {
      config: {
        rateLimit: {
          ...LIMITS.form,
          keyGenerator: (r: FastifyRequest) =>
            `rest:${(r.params as { table: string }).table}:${r.ip}`,
        },
      },
    },
    async (request, reply) => {
      const role = await roleOf(request);
      const table = tableOf(request);
      const name = request.params.table;
      const prefer = parsePrefer(request.headers.prefer);
      if (prefer.resolution || request.query.on_conflict !== undefined) throw denied(name, role); // an upsert needs UPDATE

      const rows = parseRows(request.body, request.query.columns, table, name);
      // One row is one atomic statement; several rows share a transaction (all or none).
      const representation = prefer.return === "representation";
      const store = (q: Queryable, row: (typeof rows)[number]) =>
        storeLead(q, table.lead, row, row.source, app.config, representation ? "*" : "none");
      const inserted: (StoredLead | undefined)[] =
        rows.length === 1
          ? [await store(app.db, rows[0]!)]
          : await app.db.transaction(async (tx) => {
              const out: (StoredLead | undefined)[] = [];
              for (const row of rows) out.push(await store(tx, row));
              return out;
            });
      app.mailer.flush();

      reply
        .code(201)
        .header("content-range", `*/${prefer.count === "exact" ? inserted.length : "*"}`);
      if (prefer.applied.length) reply.header("preference-applied", prefer.applied.join(", "));
      if (!representation) return reply.send();

      const body = inserted.map((row) =>
        pick(row!, selectColumns(request.query.select, table, name)),
      );
      if (request.headers.accept === "application/vnd.pgrst.object+json") {
        if (body.length !== 1) {
          return sendPostgrestError(
            reply,
            new PostgrestError(
              406,
              "PGRST116",
              "Cannot coerce the result to a single JSON object",
              `The result contains ${body.length} rows`,
            ),
          );
        }
        return reply.type("application/vnd.pgrst.object+json; charset=utf-8").send(body[0]);
      }
      return reply.type("application/json; charset=utf-8").send(body);
    },
  );

  // Reading, changing or deleting leads: the anon role has no such privilege.
  app.route<{ Params: { table: string }; Querystring: Record<string, string | undefined> }>({
    method: ["GET", "PATCH", "PUT", "DELETE"],
    url: "/:table",
    handler: async (request) => {
      const role = await roleOf(request);
      tableOf(request);
      throw denied(request.params.table, role);
    },
  });
  app.all("/*", restNotFound);
}

type Row = { email: string; source?: LeadSource };

/** The body as rows: an object or an array of objects, restricted to `columns=` when given. */
function parseRows(
  body: unknown,
  columnsParam: string | undefined,
  table: RestTable,
  name: string,
): Row[] {
  const list = Array.isArray(body) ? body : [body];
  if (
    body === undefined ||
    body === null ||
    list.length === 0 ||
    list.some((r) => typeof r !== "object" || r === null || Array.isArray(r))
  ) {
    throw new PostgrestError(400, "PGRST102", "Empty or invalid json");
  }
  if (list.length > MAX_ROWS)
    throw new PostgrestError(400, "PGRST102", `Too many rows: at most ${MAX_ROWS} per request`);
  const columns = columnsParam?.split(",").map((c) => c.trim().replace(/^"|"$/g, ""));
  if (!columns) {
    const keys = (r: object) => Object.keys(r).sort().join(",");
    if (Array.isArray(body) && list.some((r) => keys(r as object) !== keys(list[0] as object))) {
      throw new PostgrestError(400, "PGRST102", "All object keys must match");
    }
  }
  for (const column of columns ?? Object.keys(list[0] as object)) {
    if (!table.writable.includes(column)) {
      throw new PostgrestError(
        400,
        "PGRST204",
        `Could not find the '${column}' column of '${name}' in the schema cache`,
      );
    }
  }
  return list.map((raw) => {
    const row = columns
      ? Object.fromEntries(
          columns
            .filter((c) => c in (raw as object))
            .map((c) => [c, (raw as Record<string, unknown>)[c]]),
        )
      : raw;
    if (
      (row as { email?: unknown }).email === undefined ||
      (row as { email?: unknown }).email === null
    ) {
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
      const constraint = column === "source" ? "lead_source_check" : table.check;
      throw new PostgrestError(
        400,
        "23514",
        `new row for relation "${name}" violates check constraint "${constraint}"`,
        issue.message,
      );
    }
    return parsed.data;
  });
}

function selectColumns(
  select: string | undefined,
  table: RestTable,
  name: string,
): readonly string[] {
  if (!select || select.trim() === "*") return table.readable;
  const columns = select.split(",").map((c) => c.trim());
  for (const column of columns) {
    if (!table.readable.includes(column))
      throw new PostgrestError(400, "42703", `column ${name}.${column} does not exist`);
  }
  return columns;
}

function pick(row: Record<string, unknown>, columns: readonly string[]) {
  return Object.fromEntries(columns.map((c) => [c, row[c]]));
}
