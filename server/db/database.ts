// The database seen by the rest of the server: parameterised SQL, transactions and PostgreSQL's
// own error codes, on embedded PGlite or on a PostgreSQL server. Both speak the same SQL.

export type Row = Record<string, unknown>;

export interface Queryable {
  query<T extends Row = Row>(sql: string, params?: readonly unknown[]): Promise<T[]>;
  /** Runs a script of several statements without parameters (migrations). */
  exec(sql: string): Promise<void>;
  /**
   * Runs `fn` once what was written through this is committed: at once on the database itself
   * (each statement commits on its own), after COMMIT in a transaction, never when it rolls back.
   * What counts a write (a metric) counts it here, so a rolled-back write is never counted.
   */
  afterCommit(fn: () => void): void;
}

export interface Database extends Queryable {
  readonly kind: "pglite" | "postgres";
  /** Runs fn in one transaction: committed when it resolves, rolled back when it throws. */
  transaction<T>(fn: (tx: Queryable) => Promise<T>): Promise<T>;
  close(): Promise<void>;
  /** Statements waiting for a free connection now (a pool's queue; PGlite has none). */
  waiting?(): number;
}

/** Whether `q` is the database itself, not one of its transactions. */
export const isDatabase = (q: Queryable): q is Database => "transaction" in q;

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

/** Node's errors for a server that cannot be reached or went away mid-conversation. */
const UNREACHABLE = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "ETIMEDOUT",
  "EPIPE",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "ENOTFOUND",
  "EAI_AGAIN",
]);
/** node-postgres's own words for a lost or never-made connection (these carry no code). */
const LOST =
  /^(Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error|Client was closed)/;

/**
 * True when the database cannot be reached right now (refused, lost, restarting), as opposed to
 * a statement that failed: SQLSTATE class 08 (connection exception), 53 (insufficient resources:
 * too many connections), 57P01–57P03 (shut down by an administrator, crashed, starting up).
 * Such a request is answered 503 with Retry-After, never 500.
 */
export function isDatabaseUnavailable(err: unknown): boolean {
  if (!(err instanceof Error)) return false;
  const code = (err as { code?: unknown }).code;
  if (typeof code === "string") {
    if (UNREACHABLE.has(code) || /^(08|53)/.test(code) || /^57P0[123]$/.test(code)) return true;
  }
  if (err instanceof AggregateError) return err.errors.some(isDatabaseUnavailable);
  return LOST.test(err.message);
}

/**
 * A statement whose best plan depends on its values (a search pattern, a range of dates): the
 * PostgreSQL driver runs it unnamed, so it is planned with its values each time instead of with
 * a generic plan made for any value after a few runs.
 */
export const PLANNED_WITH_VALUES = "/* planned with its values */";
