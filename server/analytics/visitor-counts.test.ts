// The visitors' codes of past days become counts, by a clock given to the job (no waiting): the
// codes of yesterday are kept, those of the days before are counted and deleted with the day's
// kept referring sites and campaigns, the statistics read the same before and after, and two
// instances running the job at once count each code once.
import type { FastifyRequest } from "fastify";
import { expect, it } from "vitest";
import { describeEachDatabase, openAgain } from "../../tests/support/databases.ts";
import { migrate } from "../db/migrate.ts";
import { pageStats, PageViews } from "./page-views.ts";
import { countPastVisitors } from "./visitor-counts.ts";

const BROWSER =
  "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Safari/537.36";

/** A page served at `at` to the address `ip`, as the site's route tells the counter. */
function view(views: PageViews, ip: string, path: string, at: string, headers = {}) {
  const request = { ip, url: path, headers: { "user-agent": BROWSER, ...headers } };
  views.record(request as unknown as FastifyRequest, path, new Date(at));
}

describeEachDatabase("visitor counts of past days", (ctx) => {
  it("counts the codes of the days before yesterday and deletes them; the statistics stay", async () => {
    await migrate(ctx.db);
    const views = new PageViews(ctx.db, "https://revwise.example");
    for (let i = 1; i <= 5; i++) view(views, `192.0.2.${i}`, "/", "2001-05-10T10:00:00Z");
    view(views, "192.0.2.1", "/", "2001-05-10T11:00:00Z"); // the same visitor again
    view(views, "192.0.2.1", "/pricing", "2001-05-10T12:00:00Z", {
      referer: "https://news.example.com/a",
    });
    // The 11th: 2,500 visitors (more than one batch of the job).
    for (let i = 0; i < 2500; i++)
      view(views, `10.0.${i >> 8}.${i & 255}`, "/", "2001-05-11T09:00:00Z");
    await views.flush();
    const codes = async (day: string) => {
      const [row] = await ctx.db.query<{ n: number }>(
        "SELECT count(*)::int AS n FROM analytics.visitors WHERE day = $1::date",
        [day],
      );
      return row!.n;
    };
    const stats = await pageStats(ctx.db, "2001-05-10", "2001-05-11");
    expect(stats).toEqual([
      { day: "2001-05-11", path: "/", views: 2500, visitors: 2500, leads: 0, converted: 0 },
      { day: "2001-05-10", path: "/", views: 6, visitors: 5, leads: 0, converted: 0 },
      { day: "2001-05-10", path: "/pricing", views: 1, visitors: 1, leads: 0, converted: 0 },
    ]);

    // On the 11th, and to its last millisecond, the 10th is yesterday: its codes are kept.
    expect(await countPastVisitors(ctx.db, new Date("2001-05-11T23:59:59.999Z"))).toBe(0);
    expect(await codes("2001-05-10")).toBe(6);
    // On the 12th the 10th's codes become counts; the 11th's stay.
    expect(await countPastVisitors(ctx.db, new Date("2001-05-12T00:00:00Z"))).toBe(6);
    expect(await codes("2001-05-10")).toBe(0);
    expect(await codes("2001-05-11")).toBe(2500);
    expect(
      await ctx.db.query(
        "SELECT path, visitors FROM analytics.daily_visitors WHERE day = '2001-05-10' ORDER BY path",
      ),
    ).toEqual([
      { path: "/", visitors: 5 },
      { path: "/pricing", visitors: 1 },
    ]);
    expect(
      await ctx.db.query("SELECT kind FROM analytics.day_values WHERE day = '2001-05-10'"),
    ).toEqual([]);
    expect(await pageStats(ctx.db, "2001-05-10", "2001-05-11")).toEqual(stats);
    expect(await countPastVisitors(ctx.db, new Date("2001-05-12T00:00:00Z"))).toBe(0);

    // Two instances at once: each code is counted by the one that deletes it, once.
    const other = await openAgain(ctx);
    try {
      const moved = await Promise.all([
        countPastVisitors(ctx.db, new Date("2001-05-13T00:00:00Z")),
        countPastVisitors(other.db, new Date("2001-05-13T00:00:00Z")),
      ]);
      expect(moved[0] + moved[1]).toBe(2500);
    } finally {
      await other.close();
    }
    expect(await codes("2001-05-11")).toBe(0);
    expect(await pageStats(ctx.db, "2001-05-10", "2001-05-11")).toEqual(stats);
  });
});
