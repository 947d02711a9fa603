// The database seen by the rest of the server: parameterised SQL, transactions and PostgreSQL's
// own error codes, on embedded PGlite or on a PostgreSQL server. Both speak the same SQL.

export type Row = Record<string, unknown>;

export interface Queryable {
  query<T extends Row = Row>(sql: string, params?: readonly unknown[]): Promise<T[]>;
  /** Runs a script of several statements without parameters (migrations). */
  exec(sql: string): Promise<void>;
}

export interface Database extends Queryable {
  readonly kind: "pglite" | "postgres";
  /** Runs fn in one transaction: committed when it resolves, rolled back when it throws. */
  transaction<T>(fn: (tx: Queryable) => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

/** A database error keeps its PostgreSQL SQLSTATE (`23505`, …) for the layers above. */
export type DatabaseError = Error & {
  code: string;
  detail?: string;
  constraint?: string;
  table?: string;
  column?: string;
};

export function isDatabaseError(err: unknown): err is DatabaseError {
  const code = err instanceof Error ? (err as { code?: unknown }).code : undefined;
  return typeof code === "string" && /^[0-9A-Z]{5}$/.test(code);
}

export const UNIQUE_VIOLATION = "23505";

export const isUniqueViolation = (err: unknown): boolean =>
  isDatabaseError(err) && err.code === UNIQUE_VIOLATION;
