// @ts-check
// The embedded database's own thread: PGlite (PostgreSQL compiled to WebAssembly) runs here, so
// its work uses a core of its own instead of stopping the server's event loop. The server talks
// to it through server/db/pglite.ts with the messages of pglite-messages.ts.
//
// Plain JavaScript, type-checked by tsc through JSDoc: the compiled server (build/backend) starts
// it as it is, without a TypeScript step of its own.
import fs from "node:fs/promises";
import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { promisify } from "node:util";
import zlib from "node:zlib";
import { parentPort, workerData } from "node:worker_threads";
import { PGlite } from "@electric-sql/pglite";
import { PGLITE_OPTIONS } from "./pglite-options.mjs";
import { preparedStatements } from "./pglite-statements.mjs";

/**
 * @typedef {import("./pglite-messages.ts").Request} Request
 * @typedef {import("./pglite-messages.ts").Reply} Reply
 * @typedef {import("./pglite-messages.ts").ErrorFields} ErrorFields
 * @typedef {import("./pglite-messages.ts").ThreadData} ThreadData
 * @typedef {import("./pglite-messages.ts").SnapshotEntry} SnapshotEntry
 * @typedef {import("@electric-sql/pglite").Transaction} Transaction
 */

const gunzip = promisify(zlib.gunzip);
const port = /** @type {import("node:worker_threads").MessagePort} */ (parentPort);
const { dataDir } = /** @type {ThreadData} */ (workerData);

const pg = await open(/** @type {ThreadData} */ (workerData));
const statements = preparedStatements(pg);

/**
 * A new folder starts from the template (server/db/template.ts) when there is one. It is unpacked
 * here: gzip's checksum covers every byte, so a damaged file fails here, cleanly (PGlite's own
 * unpacking lets such an error escape). A template that cannot be loaded is set aside: the folder
 * is emptied and the database created as without it.
 * @param {ThreadData} data
 */
async function open({ dataDir, template }) {
  if (template) {
    try {
      const tarball = await gunzip(await fs.readFile(template));
      return await PGlite.create(dataDir, { ...PGLITE_OPTIONS, loadDataDir: new Blob([tarball]) });
    } catch {
      if (!dataDir.startsWith("memory://")) {
        await fs.rm(dataDir, { recursive: true, force: true });
        await fs.mkdir(dataDir, { recursive: true });
      }
    }
  }
  return PGlite.create(dataDir, PGLITE_OPTIONS);
}

/**
 * Open transactions by id: each holds PGlite's lock until the server ends it.
 * @type {Map<number, { tx: Transaction; end(commit: boolean): Promise<void> }>}
 */
const transactions = new Map();
const ROLLBACK = Symbol("rollback");

/**
 * An Error loses its own fields (code, detail, constraint, …) in a message: copy them.
 * @param {unknown} err
 * @returns {ErrorFields}
 */
function describe(err) {
  const e = err instanceof Error ? err : new Error(String(err));
  /** @type {Record<string, string | number>} */
  const fields = {};
  for (const [key, value] of Object.entries(e)) {
    if (typeof value === "string" || typeof value === "number") fields[key] = value;
  }
  return { ...fields, name: e.name, message: e.message };
}

/**
 * @param {number | undefined} tx
 * @returns {Pick<Transaction, "query" | "exec">}
 */
function target(tx) {
  if (tx === undefined) return pg;
  const open = transactions.get(tx);
  if (!open) throw new Error(`no open transaction ${tx}`);
  return open.tx;
}

/**
 * Resolves once BEGIN has run; the transaction then waits for its "end" message.
 * @param {number} id
 * @returns {Promise<void>}
 */
function begin(id) {
  return new Promise((started, failed) => {
    /** @type {Promise<void>} */
    const done = pg
      .transaction(
        (tx) =>
          new Promise((commit, rollback) => {
            transactions.set(id, {
              tx,
              end(ok) {
                if (ok) commit(undefined);
                else rollback(ROLLBACK);
                return done;
              },
            });
            started();
          }),
      )
      .then(
        () => {},
        (err) => {
          if (err !== ROLLBACK) throw err;
        },
      );
    done.catch(failed); // BEGIN itself failed (later failures are the answer to "end")
  });
}

/**
 * Every folder and file under `root`, read at once (synchronously: nothing else runs meanwhile).
 * @param {string} root
 * @returns {SnapshotEntry[]}
 */
function readTree(root) {
  /** @type {SnapshotEntry[]} */
  const entries = [];
  /** @param {string} rel */
  const visit = (rel) => {
    for (const name of readdirSync(path.join(root, rel)).sort()) {
      const child = rel ? `${rel}/${name}` : name;
      const full = path.join(root, child);
      const stat = statSync(full);
      const mode = stat.mode & 0o777;
      if (stat.isDirectory()) {
        entries.push({ name: child, mode });
        visit(child);
      } else if (stat.isFile()) {
        const data = readFileSync(full);
        // A small file's bytes may sit in Node's shared pool: such bytes get a buffer of their own,
        // so that every file's buffer can be handed over to the server's thread without a copy.
        const own = data.byteOffset === 0 && data.buffer.byteLength === data.byteLength;
        entries.push({ name: child, mode, data: own ? data : new Uint8Array(data) });
      } else {
        throw new Error(`${full} is neither a file nor a folder: it cannot be copied`);
      }
    }
  };
  visit("");
  return entries;
}

/**
 * The data folder's files as a crash at this moment would leave them, which PostgreSQL opens by
 * replaying its write-ahead log: read while PGlite holds its transaction lock (no transaction
 * open, every one committed before is in the log) and its query lock (no statement running).
 * The checkpoint before writes the changed pages out, so that a copy replays little. Statements
 * sent meanwhile wait, then run.
 * @returns {Promise<SnapshotEntry[]>}
 */
async function snapshot() {
  if (dataDir.startsWith("memory://")) throw new Error("an in-memory database has no files");
  await pg.exec("CHECKPOINT");
  return pg._runExclusiveTransaction(() => pg._runExclusiveQuery(async () => readTree(dataDir)));
}

/**
 * @param {Request} msg
 * @returns {Promise<unknown[] | undefined>}
 */
async function handle(msg) {
  switch (msg.op) {
    case "query":
      if (msg.unnamed) return (await target(msg.tx).query(msg.sql, msg.params)).rows;
      if (msg.tx === undefined) return statements.query(msg.sql, msg.params);
      target(msg.tx); // the transaction is open
      return statements.queryInTransaction(msg.sql, msg.params);
    case "exec":
      await target(msg.tx).exec(msg.sql);
      return undefined;
    case "begin":
      await begin(msg.tx);
      return undefined;
    case "end": {
      const end = transactions.get(msg.tx)?.end;
      if (!end) throw new Error(`no open transaction ${msg.tx}`);
      transactions.delete(msg.tx);
      await end(msg.commit);
      return undefined;
    }
    case "snapshot":
      return snapshot();
    case "close":
      await pg.close();
      return undefined;
  }
}

/**
 * @param {Reply} reply
 * @param {ArrayBuffer[]} [transfer] buffers handed over rather than copied (a snapshot's files)
 */
const send = (reply, transfer = []) => port.postMessage(reply, transfer);

/**
 * @param {Request} msg
 * @param {unknown[] | undefined} rows
 * @returns {ArrayBuffer[]}
 */
const handedOver = (msg, rows) =>
  msg.op === "snapshot"
    ? /** @type {SnapshotEntry[]} */ (rows).flatMap((e) =>
        e.data ? [/** @type {ArrayBuffer} */ (e.data.buffer)] : [],
      )
    : [];

port.on("message", (/** @type {Request} */ msg) => {
  handle(msg).then(
    (rows) => send({ id: msg.id, ok: true, rows }, handedOver(msg, rows)),
    (err) => send({ id: msg.id, error: describe(err) }),
  );
});
send({ id: 0, ok: true });
