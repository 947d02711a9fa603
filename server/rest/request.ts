// Reading a /rest/v1 request as the gateway and PostgREST read it: the API key and the role of the
// request's token, the one schema exposed, the parameters PostgREST parses once; and the answer's
// shape (an array, or the one object supabase-js's single() asks for). Every handler reads
// through here.
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { repeatedParams } from "../platform/query-string.ts";
import { API_KEY_ROLES, bearerToken, type Claims } from "../security/tokens.ts";
import { GatewayError, PostgrestError, tokenRefusal } from "./errors.ts";
import { relationKind } from "./methods.ts";

/** A request on a relation (`/rest/v1/{table}`). */
export type TableRequest = FastifyRequest<{
  Params: { table: string };
  Querystring: Record<string, string | undefined>;
}>;

/** Query parameters PostgREST reads once per request (the apikey is the gateway's: its first value). */
const SINGLE_PARAMS = new Set(["select", "columns", "on_conflict"]);

/** The claims of the request's role: its bearer token's, else its API key's (the gateway's check). */
export async function claimsOf(app: FastifyInstance, request: FastifyRequest): Promise<Claims> {
  const query = request.query as Record<string, string | undefined>;
  const apikey = (request.headers.apikey as string | undefined) ?? query.apikey;
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

/** The role of the request (PostgREST reads it from the JWT), after the gateway's key check. */
export async function roleOf(app: FastifyInstance, request: FastifyRequest): Promise<string> {
  return (await claimsOf(app, request)).role!;
}

/**
 * The parameters a request reads. PostgREST parses each of them once; a repeat is refused as a
 * malformed query rather than guessed at (which `columns` would the client have meant?).
 */
export function queryParams(request: TableRequest) {
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
export const denied = (name: string, role: string) =>
  new PostgrestError(
    role === "anon" ? 401 : 403,
    "42501",
    `permission denied for ${relationKind(name)} ${name}`,
  );

/** PostgREST's 404 for a name that is no relation it exposes. */
export const relationNotFound = (name: string) =>
  new PostgrestError(
    404,
    "PGRST205",
    `Could not find the table 'public.${name}' in the schema cache`,
  );

/** Only the public schema is exposed: another in Accept-Profile or Content-Profile is a 406. */
export function assertProfile(request: FastifyRequest) {
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

/**
 * Rows as PostgREST answers a read or a representation: an array, or the one object that
 * supabase-js's single() and maybeSingle() ask for (406 PGRST116 when there is not exactly one).
 */
export function asRequested(request: FastifyRequest, reply: FastifyReply, rows: unknown[]) {
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
