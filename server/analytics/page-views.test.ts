// Page analytics through the real server serving a small built site: views per day, page,
// referring site and campaign; unique visitors as salted hashes of the day; nothing that
// identifies a person stored; Do-Not-Track, Sec-GPC, robots, HEAD requests, assets and missing
// pages not counted; the salts of past days deleted; the pages that brought leads counted too.
import fs from "node:fs";
import path from "node:path";
import type { FastifyInstance } from "fastify";
import { expect, it } from "vitest";
import { ANON_KEY_PLACEHOLDER } from "../../common/site-build.ts";
import { buildTestApp, tempDir } from "../../tests/support/app.ts";
import { describeEachDatabase } from "../../tests/support/databases.ts";
import { loadSite } from "../site/site-files.ts";
import { pageStats } from "./page-views.ts";

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

describeEachDatabase("page analytics", (ctx) => {
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
      { day: today, path: "/", views: 3, visitors: 1, leads: 0 },
      { day: today, path: "/pricing", views: 1, visitors: 1, leads: 1 },
    ]);
  });
});
