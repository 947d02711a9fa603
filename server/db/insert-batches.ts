// One table's plain inserts (no RETURNING, no ON CONFLICT), sent together while the statement
// before them runs: a request's row goes at once when no batch is running, else it joins the rows
// that wait, and they all go in one statement when the running one ends. One statement writes all
// its rows or none, so a batch that fails on a row's own content (a unique or check violation) is
// sent again row by row and each row gets its own outcome; one that fails for want of a database
// fails each of its rows, as their own statements would have. Nothing waits for a timer: a lone
// request takes one round trip, as before, and under load a round trip carries many rows.
import { isDatabaseError, isDatabaseUnavailable, type Database } from "./database.ts";

type Waiting = { values: unknown[]; stored: () => void; failed: (err: unknown) => void };

/** Rows in one statement at most (PostgreSQL takes 65,535 parameters). */
const MAX_ROWS = 100;

export class InsertBatches {
  private readonly db: Database;
  private readonly table: string;
  private readonly columns: readonly string[];
  private readonly statements = new Map<number, string>();
  private readonly waiting: Waiting[] = [];
  private running = false;

  constructor(db: Database, table: string, columns: readonly string[]) {
    this.db = db;
    this.table = table;
    this.columns = columns;
  }

  /** Inserts one row (its values in the order of the columns); resolves once it is committed. */
  insert(values: unknown[]): Promise<void> {
    return new Promise((resolve, reject) => {
      this.waiting.push({ values, stored: resolve, failed: reject });
      if (!this.running) void this.next();
    });
  }

  /** Sends what waits, and again once that is done, until nothing waits. */
  private async next() {
    this.running = true;
    while (this.waiting.length > 0) {
      const batch = this.waiting.splice(0, MAX_ROWS);
      try {
        await this.send(batch);
        for (const row of batch) row.stored();
      } catch (err) {
        if (batch.length === 1 || !isDatabaseError(err) || isDatabaseUnavailable(err)) {
          for (const row of batch) row.failed(err);
        } else {
          // Nothing of the batch was written: each row on its own, to tell which one failed.
          await Promise.all(
            batch.map((row) => this.send([row]).then(() => row.stored(), row.failed)),
          );
        }
      }
    }
    this.running = false;
  }

  private send(batch: Waiting[]) {
    return this.db.query(
      this.statementFor(batch.length),
      batch.length === 1 ? batch[0]!.values : batch.flatMap((row) => row.values),
    );
  }

  /** The statement of `rows` rows (a VALUES list each), made once per count. */
  private statementFor(rows: number): string {
    let sql = this.statements.get(rows);
    if (sql === undefined) {
      const width = this.columns.length;
      const tuples = Array.from(
        { length: rows },
        (_, r) => `(${this.columns.map((_, c) => `$${r * width + c + 1}`).join(", ")})`,
      );
      sql = `INSERT INTO ${this.table} (${this.columns.join(", ")}) VALUES ${tuples.join(", ")}`;
      this.statements.set(rows, sql);
    }
    return sql;
  }
}
