// A PostgreSQL server through node-postgres: used when DATABASE_URL is set.
import crypto from "node:crypto";
import pg from "pg";
import { poolWaits } from "../metrics/metrics.ts";
import { PLANNED_WITH_VALUES, type Database, type Row } from "./database.ts";
import { isPlanChanged } from "./plan-changed.mjs";

// Parameterised statements are prepared once per connection under a name derived from their
// text: the server parses and plans them once instead of on every request. The texts are the
// server's own constants, so the set is small; past the cap, statements run unnamed, as do those
// marked PLANNED_WITH_VALUES (planned at each run with the values given).
const MAX_NAMED = 500;
const names = new Map<string, string>();
function statement(text: string, values: readonly unknown[] | undefined) {
  if (values === undefined) return { text };
  if (text.startsWith(PLANNED_WITH_VALUES)) return { text, values: values as unknown[] };
  let name = names.get(text);
  if (name === undefined && names.size < MAX_NAMED) {
    name = `s_${crypto.createHash("sha1").update(text).digest("hex").slice(0, 20)}`;
    names.set(text, name);
  }
  return { name, text, values: values as unknown[] };
}

/**
 * A named statement whose result columns changed since connections prepared it (a migration,
 * perhaps run by another instance) gets a new name, which each connection prepares afresh.
 * True when the statement had a name (an unnamed one is prepared at every run).
 */
let renamed = 0;
function prepareAgain(text: string, err: unknown): boolean {
  const name = names.get(text);
  if (name === undefined || !isPlanChanged(err)) return false;
  names.set(text, `${name.replace(/_r\d+$/, "")}_r${++renamed}`);
  return true;
}

export async function openPostgres(connectionString: string, max = 10): Promise<Database> {
  const pool = new pg.Pool({
    connectionString,
    max,
    idleTimeoutMillis: 30_000,
    connectionTimeoutMillis: 5_000,
  });
  // An idle client that loses its server must not crash the process; the pool replaces it.
  pool.on("error", () => {});
  // Fail at boot, not at the first request, when the server cannot be reached.
  const probe = await pool.connect();
  probe.release();
  /** Counts a statement that finds every connection busy and the pool full: it waits its turn. */
  const noteWait = () => {
    if (pool.idleCount === 0 && pool.totalCount >= max) poolWaits.inc();
  };
  return {
    kind: "postgres",
    waiting: () => pool.waitingCount,
    async query<T extends Row>(sql: string, params?: readonly unknown[]) {
      noteWait();
      try {
        return (await pool.query<T>(statement(sql, params))).rows;
      } catch (err) {
        if (!prepareAgain(sql, err)) throw err;
        return (await pool.query<T>(statement(sql, params))).rows;
      }
    },
    afterCommit: (fn) => fn(),
    async transaction(fn) {
      noteWait();
      const client = await pool.connect();
      // A server lost between two statements of the transaction is reported on the client, not
      // on a query: without a listener it would crash the process. The statement that follows
      // fails; the broken client is destroyed instead of going back to the pool.
      let lost: Error | undefined;
      const onError = (err: Error) => (lost = err);
      client.on("error", onError);
      const committed: (() => void)[] = [];
      // The transaction's statements share its connection: asked together, they run one after
      // another in the order asked (node-postgres's own queue for that is deprecated).
      let turn: Promise<unknown> = Promise.resolve();
      const inTurn = <T>(run: () => Promise<T>): Promise<T> => {
        const result = turn.then(run);
        turn = result.catch(() => {});
        return result;
      };
      let value;
      try {
        await client.query("BEGIN");
        value = await fn({
          query: async <T extends Row>(sql: string, params?: readonly unknown[]) => {
            try {
              return (await inTurn(() => client.query<T>(statement(sql, params)))).rows;
            } catch (err) {
              prepareAgain(sql, err); // the next transaction's run prepares it afresh
              throw err;
            }
          },
          exec: async (sql: string) => {
            await inTurn(() => client.query(sql));
          },
          afterCommit: (done) => void committed.push(done),
        });
        await client.query("COMMIT");
      } catch (err) {
        await client.query("ROLLBACK").catch(() => {});
        throw err;
      } finally {
        client.off("error", onError);
        client.release(lost);
      }
      for (const done of committed) done();
      return value;
    },
    exec: async (sql) => {
      await pool.query(sql);
    },
    close: () => pool.end(),
  };
}
