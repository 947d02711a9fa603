// @ts-check
// The PostgreSQL extensions the embedded database loads (the migrations create them): trigram
// indexes for the workspace's search (pg_trgm). Every PGlite this project opens is given these.
import { pg_trgm } from "@electric-sql/pglite/contrib/pg_trgm";

export const EXTENSIONS = { pg_trgm };
