// The embedded database's own thread: PGlite (PostgreSQL compiled to WebAssembly) runs here, so
// its work uses a core of its own instead of stopping the server's event loop. The server talks
// to it through server/db/pglite.ts with the messages of pglite-messages.ts.
import { parentPort, workerData } from "node:worker_threads";
import { PGlite, type Transaction } from "@electric-sql/pglite";
import type { ErrorFields, Reply, Request } from "./pglite-messages.ts";

const port = parentPort!;
const pg = await PGlite.create((workerData as { dataDir: string }).dataDir);

/** Open transactions by id: each holds PGlite's lock until the server ends it. */
const transactions = new Map<number, { tx: Transaction; end(commit: boolean): Promise<void> }>();
const ROLLBACK = Symbol("rollback");

/** An Error loses its own fields (code, detail, constraint, …) in a message: copy them. */
function describe(err: unknown): ErrorFields {
  const e = err instanceof Error ? err : new Error(String(err));
  const fields: Record<string, string | number> = {};
  for (const [key, value] of Object.entries(e)) {
    if (typeof value === "string" || typeof value === "number") fields[key] = value;
  }
  return { ...fields, name: e.name, message: e.message };
}

function target(tx: number | undefined): Pick<Transaction, "query" | "exec"> {
  if (tx === undefined) return pg;
  const open = transactions.get(tx);
  if (!open) throw new Error(`no open transaction ${tx}`);
  return open.tx;
}

function begin(id: number): Promise<void> {
  return new Promise((started, failed) => {
    const done: Promise<void> = pg
      .transaction(
        (tx) =>
          new Promise<void>((commit, rollback) => {
            transactions.set(id, {
              tx,
              end(ok) {
                if (ok) commit();
                else rollback(ROLLBACK);
                return done;
              },
            });
            started();
          }),
      )
      .catch((err: unknown) => {
        if (err !== ROLLBACK) throw err;
      });
    done.catch(failed); // BEGIN itself failed (later failures are the answer to "end")
  });
}

async function handle(msg: Request): Promise<unknown[] | undefined> {
  switch (msg.op) {
    case "query":
      return (await target(msg.tx).query(msg.sql, msg.params)).rows;
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
    case "close":
      await pg.close();
      return undefined;
  }
}

port.on("message", (msg: Request) => {
  handle(msg).then(
    (rows) => port.postMessage({ id: msg.id, ok: true, rows } satisfies Reply),
    (err: unknown) => port.postMessage({ id: msg.id, error: describe(err) } satisfies Reply),
  );
});
port.postMessage({ id: 0, ok: true } satisfies Reply);
