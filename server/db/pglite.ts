// Embedded PostgreSQL (PGlite) in a data folder: the default, nothing to install. PGlite runs on
// a thread of its own (pglite-thread.mjs): its queries use a second core and never stop the
// server's event loop. Queries from everywhere are sent as they come (PGlite runs them one at
// a time); a transaction holds the database from BEGIN to COMMIT, as on a single connection.
import { Worker } from "node:worker_threads";
import { PLANNED_WITH_VALUES, type Database, type Queryable, type Row } from "./database.ts";
import type { ErrorFields, Reply, Request, SnapshotEntry, ThreadData } from "./pglite-messages.ts";

type Pending = { resolve(rows: unknown[] | undefined): void; reject(err: Error): void };
type Message = Request extends infer R ? (R extends Request ? Omit<R, "id"> : never) : never;

const THREAD = new URL("./pglite-thread.mjs", import.meta.url);

function toError(fields: ErrorFields): Error {
  const { name, message, ...rest } = fields;
  return Object.assign(new Error(message), rest, { name });
}

/** The embedded database, which can also copy its own files. */
export type PgliteDatabase = Database & {
  /**
   * Its folder's every folder and file, read between statements and transactions (a copy that
   * opens as after a crash at that moment); statements sent meanwhile wait, then run.
   */
  snapshot(): Promise<SnapshotEntry[]>;
};

/** Opens `dataDir` (in memory when undefined); a new folder starts from `template` when given. */
export async function openPglite(
  dataDir: string | undefined,
  template?: string,
): Promise<PgliteDatabase> {
  const workerData: ThreadData = { dataDir: dataDir ?? "memory://", template };
  const worker = new Worker(THREAD, { workerData });
  const pending = new Map<number, Pending>();
  let nextId = 1;
  let failure: Error | undefined;

  const ready = new Promise<void>((resolve, reject) =>
    pending.set(0, { resolve: () => resolve(), reject }),
  );
  worker.on("message", (reply: Reply) => {
    const waiting = pending.get(reply.id);
    pending.delete(reply.id);
    if ("error" in reply) waiting?.reject(toError(reply.error));
    else waiting?.resolve(reply.rows);
  });
  const fail = (err: Error) => {
    failure = err;
    for (const waiting of pending.values()) waiting.reject(err);
    pending.clear();
  };
  worker.on("error", fail);
  worker.on("exit", (code) => fail(new Error(`the database thread exited (code ${code})`)));

  function send(message: Message): Promise<unknown[] | undefined> {
    if (failure) return Promise.reject(failure);
    const id = nextId++;
    return new Promise((resolve, reject) => {
      pending.set(id, { resolve, reject });
      worker.postMessage({ ...message, id });
    });
  }

  const on = (tx?: number, committed?: (() => void)[]): Queryable => ({
    async query<T extends Row>(sql: string, params?: readonly unknown[]) {
      const unnamed = sql.startsWith(PLANNED_WITH_VALUES);
      const values = params as unknown[] | undefined;
      return (await send({ op: "query", sql, params: values, tx, unnamed })) as T[];
    },
    async exec(sql: string) {
      await send({ op: "exec", sql, tx });
    },
    afterCommit(fn) {
      if (committed) committed.push(fn);
      else fn();
    },
  });

  try {
    await ready;
  } catch (err) {
    await worker.terminate();
    throw err;
  }
  let nextTx = 1;
  return {
    kind: "pglite",
    ...on(),
    async transaction(fn) {
      const tx = nextTx++;
      const committed: (() => void)[] = [];
      await send({ op: "begin", tx });
      let value;
      try {
        value = await fn(on(tx, committed));
      } catch (err) {
        await send({ op: "end", tx, commit: false }).catch(() => {}); // the first error is the one
        throw err;
      }
      await send({ op: "end", tx, commit: true });
      for (const done of committed) done();
      return value;
    },
    async snapshot() {
      return (await send({ op: "snapshot" })) as SnapshotEntry[];
    },
    async close() {
      if (failure) return;
      await send({ op: "close" });
      worker.removeAllListeners("exit");
      fail(new Error("the database is closed"));
      await worker.terminate();
    },
  };
}
