// Page analytics through the real server serving a small built site: views per day, page,
// referring site and campaign; unique visitors as salted hashes of the day; nothing that
// identifies a person stored; Do-Not-Track, Sec-GPC, robots, HEAD requests, assets and missing
// pages not counted; the salts of past days deleted; the pages that brought leads counted too; each
// visitor's day under the source of its first view, with whether that counted visitor sent a form.
import fs from "node:fs";
import path from "node:path";
import type { FastifyInstance, FastifyRequest } from "fastify";
import { expect, it } from "vitest";
import { ANON_KEY_PLACEHOLDER } from "../../common/site-build.ts";
import { buildTestApp, tempDir, TEST_JWT_SECRET } from "../../tests/support/app.ts";
import { describeWithDatabase } from "../../tests/support/databases.ts";
import { loadSite } from "../site/site-files.ts";
import { mintApiKey } from "../security/keys.ts";
import { PAGE_VIEW_BUDGET, pageStats, PageViews, sourceStats } from "./page-views.ts";
import { countPastVisitors } from "./visitor-counts.ts";
import { CAMPAIGN_LENGTH } from "./view-values.ts";

const BROWSER =
  "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Safari/537.36";

async function siteApp(db: Parameters<typeof buildTestApp>[0]): Promise<FastifyInstance> {
  const dir = tempDir("revwise-analytics-");
  const page = (rel: string, title: string) => {
    fs.mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true });
    fs.writeFileSync(
      path.join(dir, rel),
      `<!doctype html><html><head><meta name="revwise-anon-key" content="${ANON_KEY_PLACEHOLDER}"><title>${title}</title></head><body>${title}</body></html>`,
    );
  };
  page("index.html", "Home");
  page("pricing/index.html", "Pricing");
  page("__not-found/index.html", "Not found");
  page("blog/__missing/index.html", "Missing post");
  page("__spa-fallback.html", "Fallback");
  fs.mkdirSync(path.join(dir, "assets"));
  fs.writeFileSync(path.join(dir, "assets/app-1.js"), "1");
  const site = await loadSite(dir, { anonKey: "k", siteUrl: "https://revwise.example" });
  return buildTestApp(db, {
    site,
    env: { SITE_URL: "https://revwise.example", TRUST_PROXY: "loopback" },
  });
}

describeWithDatabase("page analytics", (ctx) => {
  it("counts people's page views and visitors by the day's salt, and nothing that identifies them", async () => {
    const app = await siteApp(ctx.db);
    await ctx.db.query("INSERT INTO analytics.salts (day, salt) VALUES ('2001-01-01', '\\x00')");
    const visit = (
      url: string,
      headers: Record<string, string> = {},
      method: "GET" | "HEAD" = "GET",
    ) =>
      app.inject({
        method,
        url,
        headers: { "user-agent": BROWSER, "x-forwarded-for": "203.0.113.5", ...headers },
      });
    expect((await visit("/")).statusCode).toBe(200);
    await visit("/", { referer: "https://news.example.com/story?id=1" });
    await visit("/", { referer: "https://revwise.example/pricing" }); // from our own site
    await visit("/pricing?utm_campaign=launch&utm_source=mail", {
      "x-forwarded-for": "198.51.100.7",
    });
    await visit("/pricing", { dnt: "1" });
    await visit("/pricing", { "sec-gpc": "1" });
    await visit("/pricing", { "user-agent": "Mozilla/5.0 (compatible; Googlebot/2.1)" });
    await visit("/pricing", { "user-agent": "Mozilla/5.0 Chrome-Lighthouse" });
    await visit("/pricing", {}, "HEAD");
    await visit("/assets/app-1.js");
    expect((await visit("/no-such-page")).statusCode).toBe(404);
    await app.close(); // writes what was gathered

    const today = new Date().toISOString().slice(0, 10);
    const views = await ctx.db.query<{
      path: string;
      referrer: string;
      campaign: string;
      views: number;
    }>(
      "SELECT path, referrer, campaign, views FROM analytics.page_views WHERE day = $1 ORDER BY path, referrer",
      [today],
    );
    expect(views).toEqual([
      { path: "/", referrer: "", campaign: "", views: 2 },
      { path: "/", referrer: "news.example.com", campaign: "", views: 1 },
      { path: "/pricing", referrer: "", campaign: "launch", views: 1 },
    ]);
    const visitors = await ctx.db.query<{ path: string; n: number }>(
      "SELECT path, count(*)::int AS n FROM analytics.visitors WHERE day = $1 GROUP BY path ORDER BY path",
      [today],
    );
    expect(visitors).toEqual([
      { path: "/", n: 1 },
      { path: "/pricing", n: 1 },
    ]);
    // Only today's salt is left; no address or browser is stored anywhere.
    expect(await ctx.db.query("SELECT day::text FROM analytics.salts")).toEqual([{ day: today }]);
    const stored = JSON.stringify(
      await ctx.db.query("SELECT encode(visitor, 'hex') AS v FROM analytics.visitors"),
    );
    expect(stored).not.toMatch(/203\.0\.113\.5|198\.51\.100\.7|Chrome/);
    expect(Buffer.from("203.0.113.5").toString("hex")).not.toSatisfy((hex: string) =>
      stored.includes(hex),
    );

    // The pages that brought leads count them beside their views; a newsletter address not yet
    // confirmed is nobody's lead (as in the inbox), one confirmed is.
    await ctx.db.query(
      `INSERT INTO public.contact_messages (name, email, phone, message, source)
       VALUES ('Ada', 'ada@lumen-freight.example', '+1 206 555 0100', 'Hello', '{"page": "/pricing"}')`,
    );
    await ctx.db.query(
      `INSERT INTO public.newsletter_subscribers (email, source, status) VALUES
         ('pending@lumen-freight.example', '{"page": "/"}', 'pending'),
         ('pending2@lumen-freight.example', '{"page": "/pricing"}', 'pending')`,
    );
    const stats = await pageStats(ctx.db, today, today);
    expect(stats).toEqual([
      { day: today, path: "/", views: 3, visitors: 1, leads: 0, converted: 0 },
      { day: today, path: "/pricing", views: 1, visitors: 1, leads: 1, converted: 0 },
    ]);
  });

  it("gives each visitor's day the source of its first view, and counts the counted visitors whose forms are not junk", async () => {
    const app = await siteApp(ctx.db);
    const anon = mintApiKey(new TextEncoder().encode(TEST_JWT_SECRET), "anon");
    const as = (ip: string, headers: Record<string, string> = {}) => ({
      "user-agent": BROWSER,
      "x-forwarded-for": ip,
      ...headers,
    });
    const visit = (url: string, ip: string, headers: Record<string, string> = {}) =>
      app.inject({ method: "GET", url, headers: as(ip, headers) });
    const lead = async (
      email: string,
      ip: string,
      headers: Record<string, string> = {},
      page = "/pricing",
    ) =>
      expect(
        (
          await app.inject({
            method: "POST",
            url: "/rest/v1/demo_requests",
            headers: { ...as(ip, headers), apikey: anon, "content-type": "application/json" },
            payload: { email, source: { page } },
          })
        ).statusCode,
      ).toBeLessThan(300);

    // From the newsletter's campaign, then a page of this site: one visit, two views, two forms,
    // and one more from a page the visitor was not counted on (the form says so, not the server).
    await visit(
      "/?utm_source=Newsletter&utm_medium=email&utm_campaign=Autumn%20Launch",
      "192.0.2.21",
    );
    await visit("/pricing", "192.0.2.21", { referer: "https://revwise.example/" });
    await lead("first@northwind-analytics.example", "192.0.2.21");
    await lead("second@northwind-analytics.example", "192.0.2.21");
    await lead("third@northwind-analytics.example", "192.0.2.21", {}, "/blog/elsewhere");
    // From a search engine, no form.
    await visit("/", "192.0.2.22", { referer: "https://www.google.com/search?q=revwise" });
    // Someone who asked not to be counted sends a form; someone never counted (no page) too.
    await visit("/", "192.0.2.23", { dnt: "1" });
    await lead("private@northwind-analytics.example", "192.0.2.23", { dnt: "1" });
    await lead("unseen@northwind-analytics.example", "192.0.2.24");
    await app.close(); // writes what was gathered

    const today = new Date().toISOString().slice(0, 10);
    const expected = [
      {
        referrer: "",
        source: "newsletter",
        medium: "email",
        campaign: "autumn-launch",
        views: 2,
        visitors: 1,
        leads: 1,
      },
      {
        referrer: "google.com",
        source: "",
        medium: "",
        campaign: "",
        views: 1,
        visitors: 1,
        leads: 0,
      },
    ];
    // This test's sources (the file's other tests count visits of the same day).
    const mine = async () =>
      (await sourceStats(ctx.db, today, today)).filter(
        (r) => r.source === "newsletter" || r.referrer === "google.com",
      );
    expect(await mine()).toEqual(expected);
    // The pricing page converted its one counted visitor (two forms, one visitor); the page the
    // visitor was not counted on converted nobody, though its lead is counted.
    const pages = (await pageStats(ctx.db, today, today)).filter(
      (p) => p.path === "/pricing" || p.path === "/blog/elsewhere",
    );
    expect(pages).toMatchObject([
      { path: "/pricing", converted: 1 },
      { path: "/blog/elsewhere", visitors: 0, leads: 1, converted: 0 },
    ]);
    // Junk leaves the conversions: the visitor converted while any of their leads is not junk.
    const junk = (email: string) =>
      ctx.db.query(
        `INSERT INTO public.lead_states (kind, lead_id, status)
         SELECT 'watch_demo', id, 'junk' FROM public.demo_requests WHERE email = $1
         ON CONFLICT (kind, lead_id) DO UPDATE SET status = 'junk'`,
        [email],
      );
    await junk("first@northwind-analytics.example");
    await junk("third@northwind-analytics.example");
    expect(await mine()).toEqual(expected);
    await junk("second@northwind-analytics.example");
    expect(await mine()).toEqual([{ ...expected[0], leads: 0 }, expected[1]]);
    expect(
      (await pageStats(ctx.db, today, today)).find((p) => p.path === "/pricing"),
    ).toMatchObject({ converted: 0 });
    await ctx.db.query(
      `DELETE FROM public.lead_states WHERE lead_id IN (
         SELECT id FROM public.demo_requests WHERE email LIKE '%@northwind-analytics.example'
       )`,
    );
    // A lead that goes takes its tie to the visit with it.
    const tiedTo = (email: string) =>
      ctx.db.query(
        `SELECT lv.path FROM analytics.lead_visits AS lv
         JOIN public.demo_requests AS d ON d.id = lv.lead_id WHERE d.email = $1`,
        [email],
      );
    expect(await tiedTo("third@northwind-analytics.example")).toEqual([{ path: null }]);
    const ties = async () => (await ctx.db.query("SELECT 1 FROM analytics.lead_visits")).length;
    const before = await ties();
    await ctx.db.query(
      "DELETE FROM public.demo_requests WHERE email = 'third@northwind-analytics.example'",
    );
    expect(await ties()).toBe(before - 1);
    // Two days on, the codes are counts: the same figures.
    const later = new Date(Date.now() + 2 * 86_400_000);
    await countPastVisitors(ctx.db, later);
    expect(
      await ctx.db.query("SELECT 1 FROM analytics.visit_sources WHERE day = $1", [today]),
    ).toEqual([]);
    expect(await mine()).toEqual(expected);
  });

  it("bounds what one client adds: fresh referrers, browsers and campaigns from one address", async () => {
    const app = await siteApp(ctx.db);
    const rows = async () => {
      const [row] = await ctx.db.query<{ views: number; visitors: number; total: number }>(
        `SELECT (SELECT count(*)::int FROM analytics.page_views) AS views,
           (SELECT count(*)::int FROM analytics.visitors) AS visitors,
           (SELECT coalesce(sum(views), 0)::int FROM analytics.page_views) AS total`,
      );
      return row!;
    };
    const before = await rows();
    const SENT = 300;
    for (let i = 0; i < SENT; i++)
      await app.inject({
        url: `/pricing?utm_campaign=flood-${i}-${"x".repeat(200)}`,
        headers: {
          "user-agent": `Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/${i}.0 Safari/537.36 r${i}`,
          referer: `https://flood-${i}.example/page-${i}`,
          "x-forwarded-for": "198.51.100.77",
        },
      });
    await app.close();
    const after = await rows();
    // The address's budget of views is counted (a burst, then one view per refill); the rest are
    // served but not stored. Every browser of one family on one system is one visitor.
    expect(after.total - before.total).toBe(PAGE_VIEW_BUDGET.capacity);
    expect(after.views - before.views).toBeLessThanOrEqual(PAGE_VIEW_BUDGET.capacity);
    expect(after.visitors - before.visitors).toBe(1);
    const [longest] = await ctx.db.query<{ n: number }>(
      "SELECT max(length(campaign))::int AS n FROM analytics.page_views",
    );
    expect(longest!.n).toBeLessThanOrEqual(CAMPAIGN_LENGTH);
  });

  it("keeps a bounded set of referring sites and campaigns a day; later new ones count as (other)", async () => {
    const views = new PageViews(ctx.db, "https://revwise.example", {
      dayLimits: { referrers: 3, campaigns: 2 },
    });
    let client = 0;
    const view = (referrer: string, campaign: string, times = 1) => {
      for (let i = 0; i < times; i++) {
        const request = {
          ip: `192.0.2.${++client}`,
          url: `/?utm_campaign=${campaign}`,
          headers: { "user-agent": BROWSER, referer: `https://${referrer}/post` },
        };
        views.record(request as unknown as FastifyRequest, "/", new Date("2001-03-03T12:00:00Z"));
      }
    };
    view("a.example", "Spring Sale!", 2);
    view("b.example", "");
    await views.flush();
    // Three more sites, one room left: the most viewed takes it. One more campaign fits.
    view("c.example", "summer", 1);
    view("d.example", "autumn", 3);
    view("e.example", "winter", 2);
    view("WWW.A.example", "spring-sale");
    await views.flush();
    const rows = await ctx.db.query(
      `SELECT referrer, campaign, views FROM analytics.page_views WHERE day = '2001-03-03'
       ORDER BY referrer, campaign`,
    );
    expect(rows).toEqual([
      { referrer: "(other)", campaign: "(other)", views: 3 },
      { referrer: "a.example", campaign: "spring-sale", views: 3 },
      { referrer: "b.example", campaign: "", views: 1 },
      { referrer: "d.example", campaign: "autumn", views: 3 },
    ]);
  });
});
