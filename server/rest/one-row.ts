// The body of a write that takes one row (a lead is one visitor's request and may cause at most
// one email; a lead's status, a webhook endpoint are changed one at a time): an object, or an
// array holding one. Several rows are refused as such, never as JSON that could not be read.
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
