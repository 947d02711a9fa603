// Reading what a request sends: its JSON body, the email and metadata in it, its query parameters,
// with GoTrue's answers for what cannot be read.
import type { FastifyRequest } from "fastify";
import { z } from "zod";
import { isStorableJson, isStorableText } from "../../common/storable-text.ts";
import { AuthError, ErrorCode } from "./errors.ts";

/**
 * GoTrue reads bodies leniently: unknown fields are ignored and null means absent. Text the
 * database cannot store is refused in any field, before anything reads it.
 */
export function readBody(request: FastifyRequest): Record<string, unknown> {
  const body = request.body ?? {};
  if (typeof body !== "object" || Array.isArray(body))
    throw new AuthError(400, ErrorCode.bad_json, "Could not parse request body as JSON");
  for (const [key, value] of Object.entries(body)) {
    if (!isStorableText(key) || !isStorableJson(value)) throw unstorable(key);
  }
  return Object.fromEntries(Object.entries(body).filter(([, v]) => v !== null));
}

const unstorable = (name: string) =>
  new AuthError(
    400,
    ErrorCode.validation_failed,
    `${isStorableText(name) ? name : "A field"} must not contain NUL characters or unpaired surrogates`,
  );

const emailSchema = z.email();

/**
 * Lower-cased and validated, or 400 validation_failed with GoTrue's message: none given, longer
 * than 255 characters, or not an address.
 */
export function readEmail(value: unknown): string {
  const email = (textField(value) ?? "").trim().toLowerCase();
  const refuse = (message: string) => new AuthError(400, ErrorCode.validation_failed, message);
  if (email === "") throw refuse("An email address is required");
  if (email.length > 255) throw refuse("An email address is too long");
  if (!emailSchema.safeParse(email).success)
    throw refuse("Unable to validate email address: invalid format");
  return email;
}

/**
 * Metadata (the `data` field, or the admin API's `user_metadata` and `app_metadata`): a JSON
 * object of at most 8 KiB of JSON (readBody refused text jsonb cannot store); {} when absent.
 * A number beyond a float64's range (`1e400`, which JSON.parse reads as Infinity) is unreadable,
 * as Go's decoder finds it, never stored as null.
 */
export function readMetadata(value: unknown, name = "data"): Record<string, unknown> {
  if (value === undefined) return {};
  if (typeof value !== "object" || value === null || Array.isArray(value))
    throw unreadable(`${name} must be a JSON object`);
  if (!hasFiniteNumbersOnly(value)) throw unreadable(`a number in ${name} is out of range`);
  assertMetadataSize(value);
  return value as Record<string, unknown>;
}

function hasFiniteNumbersOnly(value: unknown): boolean {
  if (typeof value === "number") return Number.isFinite(value);
  if (typeof value !== "object" || value === null) return true;
  return Object.values(value).every(hasFiniteNumbersOnly);
}

export function assertMetadataSize(metadata: object) {
  if (JSON.stringify(metadata).length > 8192)
    throw new AuthError(400, ErrorCode.validation_failed, "data is too large");
}

/** A query parameter (its first value when repeated, see platform/query-string.ts). */
export function queryParam(request: FastifyRequest, name: string): string | undefined {
  const value = (request.query as Record<string, unknown>)[name];
  if (typeof value !== "string") return undefined;
  if (!isStorableText(value)) throw unstorable(name);
  return value;
}

/**
 * A phone number as GoTrue reads it: "+" and spaces dropped, then E.164 digits (kept without "+"),
 * or 400 validation_failed.
 */
export function readPhone(value: unknown): string {
  const phone = (textField(value) ?? "").replace(/^\+/, "").replaceAll(" ", "");
  if (!/^[1-9][0-9]{1,14}$/.test(phone))
    throw new AuthError(
      400,
      ErrorCode.validation_failed,
      "Invalid phone number format (E.164 required)",
    );
  return phone;
}

/**
 * A non-empty string field, or undefined (GoTrue reads "" and null as absent). Another type is
 * GoTrue's bad_json: it reads a body into typed fields, so `{"email": 123}` is unreadable, never
 * an absent email.
 */
export function presentString(value: unknown): string | undefined {
  return textField(value) || undefined;
}

/** A text field: a string, or undefined when absent or null; another type is unreadable. */
function textField(value: unknown): string | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== "string")
    throw unreadable(`a text field holds a ${Array.isArray(value) ? "list" : typeof value}`);
  return value;
}

/** A flag (a Go bool field): false when absent or null; another type is unreadable. */
export function readFlag(value: unknown, name: string): boolean {
  if (value === undefined || value === null) return false;
  if (typeof value !== "boolean") throw unreadable(`${name} must be a boolean`);
  return value;
}

/**
 * GoTrue's answer to a field of the wrong type: it reads a body into typed fields, so the body
 * is unreadable (400 bad_json), whatever the field.
 */
export const unreadable = (detail: string) =>
  new AuthError(400, ErrorCode.bad_json, `Could not parse request body as JSON: ${detail}`);

/**
 * The email and the phone of a body, either of them or neither; both at once is refused with
 * GoTrue's message of the endpoint (`both`).
 */
export function emailOrPhone(
  body: Record<string, unknown>,
  both: string,
): { email: string | undefined; phone: string | undefined } {
  const email = presentString(body.email);
  const phone = presentString(body.phone);
  if (email !== undefined && phone !== undefined)
    throw new AuthError(400, ErrorCode.validation_failed, both);
  return { email, phone };
}

const DURATION_UNITS_MS: Record<string, number> = {
  ns: 1e-6,
  us: 1e-3,
  µs: 1e-3,
  μs: 1e-3,
  ms: 1,
  s: 1000,
  m: 60_000,
  h: 3_600_000,
};
const DURATION_PART = /(\d+\.?\d*|\.\d+)(ns|us|µs|μs|ms|s|m|h)/gy;
/** Longer bans than this (about 290 years, Go's own limit) are refused. */
const MAX_DURATION_MS = 9.2e12;

/**
 * A ban's length as GoTrue reads `ban_duration`: Go's duration syntax ("24h", "1h30m", "90s"), or
 * "none" (no ban), in milliseconds; undefined when absent or "".
 */
export function readBanDuration(value: unknown): number | undefined {
  if (value === undefined || value === "") return undefined;
  if (typeof value !== "string") throw unreadable("ban_duration must be a string");
  if (value === "none" || value === "0") return 0;
  const text = value;
  const sign = text.startsWith("-") ? -1 : 1;
  const body = text.replace(/^[-+]/, "");
  DURATION_PART.lastIndex = 0;
  let total = 0;
  let read = 0;
  for (const [part, amount, unit] of body.matchAll(DURATION_PART)) {
    total += Number(amount) * DURATION_UNITS_MS[unit!]!;
    read += part.length;
  }
  if (read === 0 || read !== body.length || total > MAX_DURATION_MS)
    throw new AuthError(
      400,
      ErrorCode.validation_failed,
      `invalid format for ban duration: time: invalid duration ${JSON.stringify(text)}`,
    );
  return sign * total;
}
