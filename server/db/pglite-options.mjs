// @ts-check
// How every PGlite this project opens is started (the server's thread and the template's build):
// with the PostgreSQL extensions the migrations create, trigram indexes for the workspace's search
// (pg_trgm), and a buffer pool of 32 MB instead of PostgreSQL's 128 MB.
import { PGlite } from "@electric-sql/pglite";
import { pg_trgm } from "@electric-sql/pglite/contrib/pg_trgm";

/**
 * The buffer pool: the embedded database's start takes about 4 ms more for each megabyte of pool,
 * so 128 MB cost half a second of every start. 32 MB still holds a small site's working set;
 * pages beyond it come from the operating system's file cache.
 */
const SHARED_BUFFERS = "32MB";

/** @type {import("@electric-sql/pglite").PGliteOptions} */
export const PGLITE_OPTIONS = {
  extensions: { pg_trgm },
  startParams: [...PGlite.defaultStartParams, "-c", `shared_buffers=${SHARED_BUFFERS}`],
};
