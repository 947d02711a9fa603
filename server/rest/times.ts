// How the REST API writes a time: as PostgREST writes one in a UTC session, to the microsecond
// the database keeps, whatever the session's time zone. A time read back filters to its own row.
export const restTime = (column: string) =>
  `to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"+00:00"')`;
