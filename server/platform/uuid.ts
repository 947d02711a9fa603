// Ids that clients hand back (token claims, links) are UUIDs; anything else is refused before it
// reaches a uuid column, where PostgreSQL would fail the query.
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function isUuid(value: unknown): value is string {
  return typeof value === "string" && UUID.test(value);
}
