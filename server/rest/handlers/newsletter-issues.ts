// POST and PATCH /rest/v1/newsletter_issues: members write an issue (subject and Markdown body),
// change a draft, schedule it (`status: "scheduled"` with `send_at`, the present to send it now)
// or take a scheduled one back to a draft. Bodies are read as PostgREST reads them and refused
// in its words; an issue whose copies started going out is changed by nobody. Scheduling is in
// the audit log.
import type { FastifyInstance } from "fastify";
import { recordAudit } from "../../audit/audit-log.ts";
import { changeIssue, createIssue, type IssueChange } from "../../newsletter/issues.ts";
import { PostgrestError } from "../errors.ts";
import { checkViolation, idFilter, notNullViolation, rowOf } from "../one-row.ts";
import { parsePrefer } from "../prefer.ts";
import { asRequested, claimsOf } from "../request.ts";
import { actorOf, assertTeamReader } from "../team-access.ts";

const TABLE = "newsletter_issues";
const LIMITS = { subject: 200, body: 100_000 } as const;

const violates = (column: string, rule: string) => checkViolation(TABLE, column, rule);

function text(row: Record<string, unknown>, column: keyof typeof LIMITS): string | undefined {
  const value = row[column];
  if (value === undefined) return undefined;
  if (typeof value !== "string" || value.trim() === "" || value.length > LIMITS[column])
    throw violates(column, `text of 1 to ${LIMITS[column]} characters`);
  return column === "subject" ? value.trim() : value;
}

function readChange(body: unknown): IssueChange {
  const row = rowOf(body, ["subject", "body", "status", "send_at"], TABLE);
  const change: IssueChange = { subject: text(row, "subject"), body: text(row, "body") };
  if (row.status !== undefined) {
    if (row.status !== "draft" && row.status !== "scheduled")
      throw violates("status", '"draft" or "scheduled" (the sender sets the others)');
    change.status = row.status;
  }
  if (row.send_at !== undefined) {
    const at = typeof row.send_at === "string" ? new Date(row.send_at) : undefined;
    if (!at || Number.isNaN(at.getTime()))
      throw new PostgrestError(
        400,
        "22007",
        `invalid input syntax for type timestamp with time zone: "${String(row.send_at)}"`,
      );
    change.send_at = at;
  }
  if (change.status === "scheduled" && !change.send_at)
    throw violates("schedule", "a send_at for a scheduled issue");
  return change;
}

export default async function newsletterIssues(app: FastifyInstance) {
  app.post(`/${TABLE}`, async (request, reply) => {
    const member = await assertTeamReader(app.db, await claimsOf(app, request), `table ${TABLE}`);
    const row = rowOf(request.body, ["subject", "body"], TABLE);
    const subject = text(row, "subject");
    const body = text(row, "body");
    if (subject === undefined || body === undefined)
      throw notNullViolation(TABLE, subject === undefined ? "subject" : "body");
    const issue = await createIssue(app.db, { subject, body, by: member.userId });
    reply.code(201);
    return parsePrefer(request.headers.prefer).return === "representation"
      ? asRequested(request, reply, [issue])
      : reply.send();
  });

  app.patch<{ Querystring: Record<string, string | undefined> }>(
    `/${TABLE}`,
    async (request, reply) => {
      const member = await assertTeamReader(app.db, await claimsOf(app, request), `table ${TABLE}`);
      const id = idFilter(request.query, "UPDATE", "issue");
      const change = readChange(request.body);
      const issue = await app.db.transaction(async (tx) => {
        const changed = await changeIssue(tx, id, change);
        if (typeof changed === "object" && change.status)
          await recordAudit(
            tx,
            request,
            actorOf(member),
            change.status === "scheduled"
              ? "newsletter_issue_scheduled"
              : "newsletter_issue_unscheduled",
            { issue_id: id, subject: changed.subject, send_at: changed.send_at },
          );
        return changed;
      });
      if (change.status === "scheduled" && typeof issue === "object") app.newsletter.wake();
      if (issue === "started" || issue === "scheduled")
        throw new PostgrestError(
          409,
          "55000",
          issue === "started"
            ? "This issue is being sent or was sent: it can no longer change"
            : "This issue is scheduled: take it back to a draft to change its text",
        );
      if (parsePrefer(request.headers.prefer).return === "representation")
        return reply.code(200).send(asRequested(request, reply, issue ? [issue] : []));
      return reply.code(204).send();
    },
  );
}
