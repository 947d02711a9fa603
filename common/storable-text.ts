// The one rule for text that reaches the database: PostgreSQL stores neither U+0000 (text, varchar
// and jsonb all refuse it) nor a UTF-16 surrogate without its pair (it has no UTF-8 encoding).
// Every text field of every endpoint is checked with it before the database sees the value.
import "./zod-config.ts";
import { z } from "zod";

// eslint-disable-next-line no-control-regex -- U+0000 is one of the characters looked for
const UNSTORABLE = /\u0000|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

export const UNSTORABLE_TEXT_MESSAGE = "Please remove unsupported characters";

export function isStorableText(value: string): boolean {
  return !UNSTORABLE.test(value);
}

/** Whether every string in a JSON value (keys included) is storable. */
export function isStorableJson(value: unknown): boolean {
  if (typeof value === "string") return isStorableText(value);
  if (typeof value !== "object" || value === null) return true;
  if (Array.isArray(value)) return value.every(isStorableJson);
  return Object.entries(value).every(([k, v]) => isStorableText(k) && isStorableJson(v));
}

/** A string the database can store; the first check, so its message wins over the others. */
export const storableString = (params?: Parameters<typeof z.string>[0]) =>
  z.string(params).refine(isStorableText, { error: UNSTORABLE_TEXT_MESSAGE, abort: true });
