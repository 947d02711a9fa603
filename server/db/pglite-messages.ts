// The messages between the server (server/db/pglite.ts) and the database thread
// (server/db/pglite-thread.mjs). Every request gets one reply with the same id.

/** What the thread opens: a folder (or memory://), from a template when the folder is new. */
export type ThreadData = { dataDir: string; template?: string | undefined };

export type Request = { id: number } & (
  | {
      op: "query";
      sql: string;
      params?: unknown[];
      tx?: number;
      /** Planned with its values at each run, rather than kept prepared by its text. */
      unnamed: boolean;
    }
  | { op: "exec"; sql: string; tx?: number }
  /** Answered once BEGIN has run; the transaction then holds the database until "end". */
  | { op: "begin"; tx: number }
  /** Answered with the outcome of COMMIT (commit) or ROLLBACK. */
  | { op: "end"; tx: number; commit: boolean }
  /**
   * Answered with every folder and file of the data folder (SnapshotEntry rows), read while no
   * statement runs and no transaction is open: the files a crash at that moment would leave.
   */
  | { op: "snapshot" }
  | { op: "close" }
);

/** A folder (no data) or a file of the data folder, named relative to it with "/". */
export type SnapshotEntry = { name: string; mode: number; data?: Uint8Array };

/** An error's name, message and PostgreSQL fields (code, detail, constraint, …). */
export type ErrorFields = { name: string; message: string } & Record<string, string | number>;

export type Reply = { id: number } & ({ ok: true; rows?: unknown[] } | { error: ErrorFields });
