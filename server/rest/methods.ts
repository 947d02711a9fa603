// The methods /rest/v1 takes on each path, as PostgREST tells them in an Allow header
// (Response.hs: respondInfo for OPTIONS): what a relation or a function is in the database, not
// what the caller may do with it (a role without the privilege is refused by the method itself).
import { REST_LEADS } from "./lead-tables.ts";
import { READABLE } from "./readable.ts";

/** A table with a primary key, or an automatically updatable view of one: every method. */
export const TABLE_METHODS = "OPTIONS,GET,HEAD,POST,PUT,PATCH,DELETE";
/** A view PostgreSQL cannot write through (`leads` joins and unions), or computed rows. */
const READ_ONLY = "OPTIONS,GET,HEAD";
/**
 * A function that writes (VOLATILE): GET and HEAD call a function in a read-only transaction,
 * where it fails, so PostgREST names POST only. Every function here writes.
 */
export const FUNCTION_METHODS = "OPTIONS,POST";

const RELATIONS: ReadonlyMap<string, string> = new Map([
  ...[...Object.keys(REST_LEADS), ...Object.keys(READABLE), "lead_states", "lead_notes"].map(
    (name) => [name, TABLE_METHODS] as const,
  ),
  ["leads", READ_ONLY],
  ["team_members", READ_ONLY],
  ["people", READ_ONLY],
  ["page_stats", READ_ONLY],
  ["source_stats", READ_ONLY],
]);

/** The relations that are views (the statistics, computed rows, are answered as one). */
const VIEWS = new Set([
  "emails",
  "leads",
  "subscribers",
  "team_members",
  "page_stats",
  "source_stats",
]);

/** What PostgreSQL calls a relation in its messages: a table or a view. */
export const relationKind = (name: string): "table" | "view" =>
  VIEWS.has(name) ? "view" : "table";

/** The name of every relation /rest/v1 exposes. */
export const REST_RELATIONS: readonly string[] = [...RELATIONS.keys()];

/** The Allow of a relation /rest/v1 exposes; undefined for a name that is none. */
export const relationMethods = (name: string): string | undefined => RELATIONS.get(name);
