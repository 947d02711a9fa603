// Reading the team's views (readable.ts): members on aal2 only (team-access.ts), in PostgREST's
// read syntax (read-query.ts), as JSON with the counts PostgREST gives, or as a CSV download
// streamed a batch at a time.
import { Readable } from "node:stream";
import type { FastifyInstance, FastifyReply } from "fastify";
import { recordAudit, type AuditActor } from "../../audit/audit-log.ts";
import { everyValue, type Query } from "../../platform/query-string.ts";
import { csvLine } from "../csv.ts";
import { PostgrestError } from "../errors.ts";
import { parsePrefer } from "../prefer.ts";
import {
  EXPORT_AT,
  EXPORT_BATCH,
  EXPORT_ID,
  MAX_ROWS,
  planExport,
  planRead,
  rangeAnswer,
  type ExportCursor,
  type ReadPlan,
} from "../read-query.ts";
import { READABLE, type ReadRelation } from "../readable.ts";
import { asRequested, assertProfile, claimsOf, type TableRequest } from "../request.ts";
import { actorOf, assertTeamAdmin, assertTeamReader } from "../team-access.ts";
import { refuse } from "./refused.ts";

/** The media types a read answers in: JSON, one JSON object (single()) and CSV. */
const READ_MEDIA = new Set([
  "*/*",
  "application/*",
  "application/json",
  "application/vnd.pgrst.object+json",
  "text/csv",
]);

/** An Accept header none of whose types a read answers in is PostgREST's 406. */
function assertReadableAs(accept: string | undefined) {
  if (!accept?.trim()) return;
  const types = accept.split(",").map((t) => t.split(";")[0]!.trim().toLowerCase());
  if (!types.some((t) => READ_MEDIA.has(t)))
    throw new PostgrestError(
      406,
      "PGRST107",
      `None of these media types are available: ${types.join(", ")}`,
    );
}

/** The filters of an export as asked (its query string, without the gateway's apikey). */
function exportedQuery(url: string): string {
  const params = new URLSearchParams(url.slice(url.indexOf("?") + 1 || url.length));
  params.delete("apikey");
  return params.toString();
}

export default async function reads(app: FastifyInstance) {
  app.get<{ Params: { table: string }; Querystring: Record<string, string | undefined> }>(
    "/:table",
    async (request, reply) => {
      const relation = Object.hasOwn(READABLE, request.params.table)
        ? READABLE[request.params.table]
        : undefined;
      if (!relation) return refuse(app, request);
      const claims = await claimsOf(app, request);
      assertProfile(request);
      assertReadableAs(request.headers.accept);
      const reader = await (relation.adminOnly ? assertTeamAdmin : assertTeamReader)(
        app.db,
        claims,
        `view ${relation.name}`,
      );
      if (/\btext\/csv\b/.test(request.headers.accept ?? ""))
        return exportCsv(relation, request, reply, actorOf(reader));
      const plan = planRead(relation, everyValue(request.query as Query), request.headers.range);
      const prefer = parsePrefer(request.headers.prefer);
      const [rows, total] = await Promise.all([
        app.db.query(plan.sql, plan.params),
        prefer.count && countOf(plan, prefer.count),
      ]);
      const answer = rangeAnswer(plan.offset, rows.length, total);
      if (answer.status === 416)
        throw new PostgrestError(
          416,
          "PGRST103",
          "Requested range not satisfiable",
          `An offset of ${plan.offset} was requested, but there are only ${total} rows.`,
        );
      reply.code(answer.status).header("content-range", answer.contentRange);
      if (prefer.applied.length) reply.header("preference-applied", prefer.applied.join(", "));
      return asRequested(request, reply, rows);
    },
  );

  /**
   * The count a reader asked for, as PostgREST counts: `exact` counts every matching row;
   * `planned` is the planner's estimate; `estimated` is exact up to the most rows one request
   * returns and the estimate beyond (a page of a million leads shows "about" instead of reading
   * them all).
   */
  async function countOf(plan: ReadPlan, how: "exact" | "planned" | "estimated") {
    const count = async (sql: string) =>
      (await app.db.query<{ n: number }>(sql, plan.countParams))[0]!.n;
    const planned = async () => {
      const [explained] = await app.db.query<{ "QUERY PLAN": [{ Plan: { "Plan Rows": number } }] }>(
        plan.plannedCountSql,
        plan.countParams,
      );
      return Math.round(explained!["QUERY PLAN"][0].Plan["Plan Rows"]);
    };
    if (how === "exact") return count(plan.countSql);
    if (how === "planned") return planned();
    const capped = await count(plan.cappedCountSql);
    return capped <= MAX_ROWS ? capped : Math.max(capped, await planned());
  }

  /**
   * The rows the filters select as a CSV download, streamed a batch at a time (memory stays one
   * batch, whatever the number of rows).
   */
  async function exportCsv(
    relation: ReadRelation,
    request: TableRequest,
    reply: FastifyReply,
    actor: AuditActor,
  ) {
    const plan = planExport(relation, everyValue(request.query as Query));
    const db = app.db;
    const batch = (after?: ExportCursor) => {
      const { sql, params } = plan.batch(after);
      return db.query<Record<string, unknown>>(sql, params);
    };
    // The first batch is read before the answer starts: a filter value the database refuses (a
    // malformed id or date) is its 4xx, not a download cut short after its 200.
    const first = await batch();
    // Logged before the download starts: an export the log cannot record is not made.
    await recordAudit(app.db, request, actor, "csv_exported", {
      relation: relation.name,
      query: exportedQuery(request.url),
    });
    async function* lines() {
      yield csvLine(plan.columns);
      for (let rows = first; ;) {
        if (rows.length > 0) yield rows.map((r) => csvLine(plan.columns.map((c) => r[c]))).join("");
        if (rows.length < EXPORT_BATCH) return;
        const last = rows[rows.length - 1]!;
        rows = await batch({ at: last[EXPORT_AT] as string, id: last[EXPORT_ID] as string });
      }
    }
    const day = new Date().toISOString().slice(0, 10);
    return reply
      .type("text/csv; charset=utf-8")
      .header("content-disposition", `attachment; filename="${relation.name}-${day}.csv"`)
      .send(Readable.from(lines()));
  }
}
