// Every table of ours as its row count and a hash of its rows, to prove a request changed nothing.
// The outbox's delivery columns change in the background as the worker delivers, so the outbox
// counts by its content; a wrong code is counted on its token on purpose (its tries are limited),
// so a token counts without its failed attempts; the digest is taken once the work earlier answers
// started is done (emails made after the answer).
import type { FastifyInstance } from "fastify";
import type { Database } from "../../server/db/database.ts";

export type TableDigest = { name: string; n: number; h: string }[];

/** Reads the tables now and returns what takes their digest (the same tables each time). */
export async function tableDigester(
  db: Database,
  app: FastifyInstance,
): Promise<() => Promise<TableDigest>> {
  const tables = await db.query<{ name: string }>(
    `SELECT format('%I.%I', table_schema, table_name) AS name FROM information_schema.tables
     WHERE table_schema IN ('public', 'auth', 'mail', 'internal') AND table_type = 'BASE TABLE'
     ORDER BY 1`,
  );
  if (!tables.some((t) => t.name === "mail.outbox")) throw new Error("no mail.outbox to digest");
  const sql = tables
    .map(({ name }) => {
      const rows =
        name === "mail.outbox"
          ? "(SELECT id, kind, to_address, subject, text_body FROM mail.outbox)"
          : name === "auth.one_time_tokens"
            ? "(SELECT to_jsonb(t) - 'failed_attempts' AS token FROM auth.one_time_tokens t)"
            : name;
      return `SELECT '${name}' AS name, count(*)::int AS n, md5(coalesce(string_agg(r::text, '|' ORDER BY r::text), '')) AS h FROM ${rows} r`;
    })
    .join(" UNION ALL ");
  return async () => {
    await app.afterAnswer.idle();
    return db.query<TableDigest[number]>(sql);
  };
}
