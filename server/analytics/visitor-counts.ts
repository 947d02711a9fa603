// The visitors' codes of past days become counts. A code (analytics.visitors) only serves to count
// a visitor of a page once on its day; once the day after it is over (the day's salt long gone,
// and a late write of the day's counts landed), each day's codes are counted into
// analytics.daily_visitors and deleted in one statement, with the day's kept referring sites and
// campaigns (analytics.day_values); the visits' sources (analytics.visit_sources) likewise become
// counts per source (analytics.daily_sources). Run hourly by every instance (platform/retention.ts): two runs
// at once count each code once, as a code is counted by the run that deletes it.
import type { Queryable } from "../db/database.ts";
import { inBatches } from "../platform/retention.ts";

/** The first day whose codes are still kept at `at`: the day before `at`'s UTC day. */
export function firstKeptDay(at: Date): string {
  return new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), at.getUTCDate() - 1))
    .toISOString()
    .slice(0, 10);
}

/**
 * Counts and deletes the visitors' codes of the days before yesterday (of pages and of visits);
 * how many codes of pages went.
 */
export async function countPastVisitors(db: Queryable, at = new Date()): Promise<number> {
  const kept = firstKeptDay(at);
  const moved = await inBatches(async (limit) => {
    const [row] = await db.query<{ moved: number }>(
      `WITH gone AS (
         DELETE FROM analytics.visitors WHERE day < $1::date AND (day, path, visitor) IN (
           SELECT day, path, visitor FROM analytics.visitors WHERE day < $1::date LIMIT $2
         ) RETURNING day, path
       ), counted AS (
         INSERT INTO analytics.daily_visitors (day, path, visitors)
         SELECT day, path, count(*)::int FROM gone GROUP BY day, path
         ON CONFLICT (day, path) DO UPDATE SET visitors = daily_visitors.visitors + EXCLUDED.visitors
       )
       SELECT count(*)::int AS moved FROM gone`,
      [kept, limit],
    );
    return row!.moved;
  });
  await inBatches(async (limit) => {
    const [row] = await db.query<{ moved: number }>(
      `WITH gone AS (
         DELETE FROM analytics.visit_sources WHERE day < $1::date AND (day, visitor) IN (
           SELECT day, visitor FROM analytics.visit_sources WHERE day < $1::date LIMIT $2
         ) RETURNING day, referrer, source, medium, campaign, views, converted
       ), counted AS (
         INSERT INTO analytics.daily_sources AS d
           (day, referrer, source, medium, campaign, views, visitors, converted)
         SELECT day, referrer, source, medium, campaign, sum(views)::int, count(*)::int,
           count(*) FILTER (WHERE converted)::int
         FROM gone GROUP BY day, referrer, source, medium, campaign
         ON CONFLICT (day, referrer, source, medium, campaign) DO UPDATE SET
           views = d.views + EXCLUDED.views, visitors = d.visitors + EXCLUDED.visitors,
           converted = d.converted + EXCLUDED.converted
       )
       SELECT count(*)::int AS moved FROM gone`,
      [kept, limit],
    );
    return row!.moved;
  });
  await db.query("DELETE FROM analytics.day_values WHERE day < $1::date", [kept]);
  return moved;
}
