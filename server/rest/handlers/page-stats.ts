// GET /rest/v1/page_stats: page statistics per day and page for team members, computed from the
// counts and the leads of those days (analytics/page-views.ts pageStats); GET
// /rest/v1/source_stats: views, visitors and converted visitors per referring site and UTM source,
// medium and campaign over the range (sourceStats). A read names its days
// as `day=gte.<from>&day=lte.<to>` (or `day=eq.<day>`), required and at most a year, so a read is
// always of a bounded range.
import type { FastifyInstance } from "fastify";
import { pageStats, sourceStats } from "../../analytics/page-views.ts";
import { everyValue, type Query } from "../../platform/query-string.ts";
import { PostgrestError } from "../errors.ts";
import { claimsOf } from "../request.ts";
import { assertTeamReader } from "../team-access.ts";

const MAX_DAYS = 366;
const DAY = /^\d{4}-\d{2}-\d{2}$/;

const needRange = (name: string, details: string) =>
  new PostgrestError(
    400,
    "PGRST100",
    `${name} needs a range of days`,
    details,
    `Filter day=gte.<from>&day=lte.<to> (YYYY-MM-DD, at most ${MAX_DAYS} days)`,
  );

const dayOf = (value: string) => {
  const time = DAY.test(value) ? Date.parse(`${value}T00:00:00Z`) : NaN;
  if (Number.isNaN(time) || new Date(time).toISOString().slice(0, 10) !== value)
    throw new PostgrestError(400, "22007", `invalid input syntax for type date: "${value}"`);
  return time;
};

function statsRange(
  query: Record<string, string | string[]>,
  name: string,
): { from: string; to: string } {
  let from: string | undefined;
  let to: string | undefined;
  for (const [param, raw] of Object.entries(query)) {
    if (param === "apikey" || (param === "select" && raw === "*")) continue;
    if (param !== "day") throw needRange(name, `Unexpected parameter ${param}`);
    for (const filter of Array.isArray(raw) ? raw : [raw]) {
      const [, op, value] = /^(gte|lte|eq)\.(.*)$/s.exec(filter) ?? [];
      if (!op || value === undefined) throw needRange(name, `Unexpected filter day=${filter}`);
      dayOf(value);
      if (op !== "lte") from = value;
      if (op !== "gte") to = value;
    }
  }
  if (!from || !to) throw needRange(name, "A day range has two ends");
  const days = (dayOf(to) - dayOf(from)) / 86_400_000 + 1;
  if (days < 1 || days > MAX_DAYS) throw needRange(name, `The range holds ${days} days`);
  return { from, to };
}

export default async function pageStatistics(app: FastifyInstance) {
  for (const [name, read] of [
    ["page_stats", pageStats],
    ["source_stats", sourceStats],
  ] as const)
    app.get<{ Querystring: Record<string, string | undefined> }>(`/${name}`, async (request) => {
      const claims = await claimsOf(app, request);
      await assertTeamReader(app.db, claims, `view ${name}`);
      const { from, to } = statsRange(everyValue(request.query as Query), name);
      return read(app.db, from, to);
    });
}
