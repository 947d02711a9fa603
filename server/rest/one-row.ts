// The body of a write that takes one row (a lead is one visitor's request and may cause at most
// one email; a lead's status, a webhook endpoint, a newsletter issue are changed one at a time):
// an object, or an array holding one. Several rows are refused as such, never as JSON that could
// not be read. A change names its one row by id.
import type { ZodSafeParseResult } from "zod";
import { isUuid } from "../platform/uuid.ts";
import { PostgrestError } from "./errors.ts";

export function oneRow(body: unknown): Record<string, unknown> {
  const list: unknown[] = Array.isArray(body) ? body : [body];
  if (
    list.length === 0 ||
    list.some((r) => typeof r !== "object" || r === null || Array.isArray(r))
  )
    throw new PostgrestError(400, "PGRST102", "Empty or invalid json");
  if (list.length > 1)
    throw new PostgrestError(
      400,
      "PGRST102",
      "One row per request",
      `The body holds ${list.length} rows`,
      "Send one object per request",
    );
  return list[0] as Record<string, unknown>;
}

/** The one row of a body, of the columns `allowed` of `table` (PGRST204 for another). */
export function rowOf(
  body: unknown,
  allowed: readonly string[],
  table: string,
): Record<string, unknown> {
  const row = oneRow(body);
  for (const key of Object.keys(row))
    if (!allowed.includes(key))
      throw new PostgrestError(
        400,
        "PGRST204",
        `Could not find the '${key}' column of '${table}' in the schema cache`,
      );
  return row;
}

/**
 * The row an UPDATE or DELETE names: its `id=eq.…` filter, required (Supabase's safeupdate
 * refuses a write without WHERE: a typo must not change every row). `what` names the row in the
 * hint.
 */
export function idFilter(
  query: Record<string, string | undefined>,
  verb: string,
  what: string,
): string {
  const filters = Object.keys(query).filter((k) => !["select", "apikey"].includes(k));
  const id = /^eq\.(.*)$/s.exec(query.id ?? "")?.[1];
  if (id === undefined || filters.length !== 1)
    throw new PostgrestError(
      400,
      "21000",
      `${verb} requires a WHERE clause`,
      null,
      `Name the ${what}: ?id=eq.<id>`,
    );
  if (!isUuid(id))
    throw new PostgrestError(400, "22P02", `invalid input syntax for type uuid: "${id}"`);
  return id;
}

/** A required column left out or null, refused as PostgreSQL refuses a NOT NULL violation. */
export const notNullViolation = (table: string, column: string) =>
  new PostgrestError(
    400,
    "23502",
    `null value in column "${column}" of relation "${table}" violates not-null constraint`,
  );

/** A column's value refused as PostgreSQL refuses a CHECK constraint's violation. */
export const checkViolation = (table: string, column: string, rule: string) =>
  new PostgrestError(
    400,
    "23514",
    `new row for relation "${table}" violates check constraint "${table}_${column}_check"`,
    `${column} must be ${rule}`,
  );

/**
 * The body as one row of `table` read by `schema`, or PostgREST's 400 naming what is wrong: an
 * unknown column (PGRST204) or the first value a check refuses (23514).
 */
export function oneRowOf<T>(
  schema: { safeParse(value: unknown): ZodSafeParseResult<T> },
  body: unknown,
  table: string,
): T {
  const parsed = schema.safeParse(oneRow(body));
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0]!;
  if (issue.code === "unrecognized_keys")
    throw new PostgrestError(
      400,
      "PGRST204",
      `Could not find the '${issue.keys[0]}' column of '${table}' in the schema cache`,
    );
  throw new PostgrestError(
    400,
    "23514",
    `new row for relation "${table}" violates check constraint on ${String(issue.path[0])}`,
    issue.message,
  );
}
