// @ts-check
// Statements kept prepared on the embedded database. PGlite's own query() parses, describes,
// binds, describes and executes every statement, each step a call into WebAssembly of its own;
// here a statement's text is parsed and described once, under a name, and every later run is one
// call: bind, describe, execute and sync in one buffer of the wire protocol.
import { parse, protocol } from "@electric-sql/pglite";
import { isPlanChanged } from "./plan-changed.mjs";

/**
 * @typedef {import("@electric-sql/pglite").PGlite} PGlite
 * @typedef {{ name: string; types: number[] }} Prepared
 */

/** How many statements stay prepared; the least recently run one is closed to make room. */
const CAPACITY = 256;

const { serialize } = protocol;

/**
 * Runs statements on `pg` by their prepared names.
 * @param {PGlite} pg
 */
export function preparedStatements(pg) {
  /** Least recently run first (a Map keeps insertion order). @type {Map<string, Prepared>} */
  const prepared = new Map();
  /** Names no longer used, closed with the next statement prepared. @type {string[]} */
  const stale = [];
  let counter = 0;

  /**
   * @param {string} sql
   * @param {boolean} inTransaction
   * @returns {Promise<Prepared>}
   */
  async function prepare(sql, inTransaction) {
    const [oldest] = prepared.size >= CAPACITY ? prepared : [];
    if (oldest) {
      prepared.delete(oldest[0]);
      stale.push(oldest[1].name);
    }
    const parts = stale.splice(0).map((name) => serialize.close({ type: "S", name }));
    const name = `revwise_${++counter}`;
    parts.push(
      serialize.parse({ name, text: sql }),
      serialize.describe({ type: "S", name }),
      serialize.sync(),
    );
    const { messages } = await pg.execProtocol(Buffer.concat(parts), { syncToFs: !inTransaction });
    const statement = { name, types: parse.parseDescribeStatementResults(messages) };
    prepared.set(sql, statement);
    return statement;
  }

  /**
   * @param {Prepared} statement
   * @param {readonly unknown[]} params
   * @param {boolean} inTransaction
   */
  async function run({ name, types }, params, inTransaction) {
    const values = params.map((value, i) => {
      if (value === null || value === undefined) return null;
      const type = types[i];
      const serializer = type === undefined ? undefined : pg.serializers[type];
      return serializer ? serializer(value) : String(value);
    });
    const { messages } = await pg.execProtocol(
      Buffer.concat([
        serialize.bind({ statement: name, values }),
        serialize.describe({ type: "P" }),
        serialize.execute({}),
        serialize.sync(),
      ]),
      { syncToFs: !inTransaction },
    );
    return parse.parseResults(messages, pg.parsers)[0]?.rows ?? [];
  }

  /**
   * @param {string} sql
   * @param {readonly unknown[]} params
   * @param {boolean} inTransaction
   */
  async function query(sql, params, inTransaction) {
    const known = prepared.get(sql);
    if (!known) return run(await prepare(sql, inTransaction), params, inTransaction);
    prepared.delete(sql);
    prepared.set(sql, known);
    try {
      return await run(known, params, inTransaction);
    } catch (err) {
      // A table's columns changed under the statement (a migration): it is prepared again, and
      // run again at once outside a transaction (inside one, the transaction has failed).
      if (!isPlanChanged(err)) throw err;
      prepared.delete(sql);
      stale.push(known.name);
      if (inTransaction) throw err;
      return run(await prepare(sql, false), params, false);
    }
  }

  return {
    /**
     * A statement's rows, run on its own (it waits for open transactions to end).
     * @param {string} sql
     * @param {readonly unknown[]} [params]
     */
    query: (sql, params = []) =>
      pg._runExclusiveTransaction(() => pg._runExclusiveQuery(() => query(sql, params, false))),
    /**
     * A statement's rows, run in the open transaction (which holds the database already).
     * @param {string} sql
     * @param {readonly unknown[]} [params]
     */
    queryInTransaction: (sql, params = []) => pg._runExclusiveQuery(() => query(sql, params, true)),
  };
}
