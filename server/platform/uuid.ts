// Ids that clients hand back (token claims, links) are UUIDs; anything else is refused before it
// reaches a uuid column, where PostgreSQL would fail the query.
import crypto from "node:crypto";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function isUuid(value: unknown): value is string {
  return typeof value === "string" && UUID.test(value);
}

/**
 * A time-ordered (version 7) UUID of the millisecond of `at`, as internal.uuid_v7(at) makes: a
 * random (version 4) UUID from Node's pooled entropy, its first 48 bits the time and its version
 * 7 (its variant bits are already RFC 9562's). Made on every lead stored.
 */
export function uuidV7At(at: Date): string {
  const ms = at.getTime().toString(16).padStart(12, "0");
  return `${ms.slice(0, 8)}-${ms.slice(8)}-7${crypto.randomUUID().slice(15)}`;
}
