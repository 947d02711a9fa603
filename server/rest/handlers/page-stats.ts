// GET /rest/v1/page_stats: page statistics per day and page for team members, computed from the
// counts and the leads of those days (analytics/page-views.ts pageStats). A read names its days
// as `day=gte.<from>&day=lte.<to>` (or `day=eq.<day>`), required and at most a year, so a read is
// always of a bounded range.
import type { FastifyInstance } from "fastify";
import { pageStats } from "../../analytics/page-views.ts";
import { everyValue, type Query } from "../../platform/query-string.ts";
import { PostgrestError } from "../errors.ts";
import { claimsOf } from "../request.ts";
import { assertTeamReader } from "../team-access.ts";

const MAX_DAYS = 366;
const DAY = /^\d{4}-\d{2}-\d{2}$/;

const needRange = (details: string) =>
  new PostgrestError(
    400,
    "PGRST100",
    "page_stats needs a range of days",
    details,
    `Filter day=gte.<from>&day=lte.<to> (YYYY-MM-DD, at most ${MAX_DAYS} days)`,
  );

const dayOf = (value: string) => {
  const time = DAY.test(value) ? Date.parse(`${value}T00:00:00Z`) : NaN;
  if (Number.isNaN(time) || new Date(time).toISOString().slice(0, 10) !== value)
    throw new PostgrestError(400, "22007", `invalid input syntax for type date: "${value}"`);
  return time;
};

function statsRange(query: Record<string, string | string[]>): { from: string; to: string } {
  let from: string | undefined;
  let to: string | undefined;
  for (const [name, raw] of Object.entries(query)) {
    if (name === "apikey" || (name === "select" && raw === "*")) continue;
    if (name !== "day") throw needRange(`Unexpected parameter ${name}`);
    for (const filter of Array.isArray(raw) ? raw : [raw]) {
      const [, op, value] = /^(gte|lte|eq)\.(.*)$/s.exec(filter) ?? [];
      if (!op || value === undefined) throw needRange(`Unexpected filter day=${filter}`);
      dayOf(value);
      if (op !== "lte") from = value;
      if (op !== "gte") to = value;
    }
  }
  if (!from || !to) throw needRange("A day range has two ends");
  const days = (dayOf(to) - dayOf(from)) / 86_400_000 + 1;
  if (days < 1 || days > MAX_DAYS) throw needRange(`The range holds ${days} days`);
  return { from, to };
}

export default async function pageStatistics(app: FastifyInstance) {
  app.get<{ Querystring: Record<string, string | undefined> }>("/page_stats", async (request) => {
    const claims = await claimsOf(app, request);
    await assertTeamReader(app.db, claims, "view page_stats");
    const { from, to } = statsRange(everyValue(request.query as Query));
    return pageStats(app.db, from, to);
  });
}
