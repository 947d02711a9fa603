// npm run bench:analytics: how much the database grows per million page views. The real app (in
// this process, app.inject) serves a small site of the site's routes; BENCH_VIEWS views (100,000 by
// default) arrive from BENCH_CLIENTS addresses (a few pages each) with the variety of real traffic
// (browsers and their versions, search engines and social sites, a long tail of referring sites
// never seen before, campaigns and fresh campaign names), plus one client sending fresh values on
// every view. The analytics tables' size (pg_total_relation_size) and rows are read before, once
// the views are written, and after the hourly job has counted the visitors' codes (run with a clock
// two days on) and the tables were compacted (VACUUM FULL, as autovacuum's reuse of the space would
// leave them in the long run). Each figure is given per million views. PostgreSQL and PGlite.
import fs from "node:fs";
import path from "node:path";
import type { FastifyInstance } from "fastify";
import { countPastVisitors } from "../server/analytics/visitor-counts.ts";
import type { Database } from "../server/db/database.ts";
import { openPglite } from "../server/db/pglite.ts";
import { openPostgres } from "../server/db/postgres.ts";
import { loadSite } from "../server/site/site-files.ts";
import { ANON_KEY_PLACEHOLDER } from "../common/site-build.ts";
import { buildTestApp, tempDir } from "../tests/support/app.ts";
import { createTestDatabase, postgresAvailable } from "../tests/support/postgres.ts";
import { fmt, table } from "./lib.ts";

const VIEWS = Number(process.env.BENCH_VIEWS ?? 100_000);
const CLIENTS = Number(process.env.BENCH_CLIENTS ?? 25_000);
const AT_ONCE = 64;
const SITE_URL = "https://revwise.example";

const PAGES = [
  "/",
  "/pricing",
  "/product",
  "/use-cases",
  "/customers",
  "/about",
  "/careers",
  "/contact",
  "/security",
  "/integrations",
  "/documentation",
  "/faq",
  "/blog",
  "/blog/revwise-manifesto",
  "/blog/ten-ways-sellers",
  "/blog/forecasting-with-ai",
  "/blog/crm-hygiene",
  "/request-access",
  "/watch-demo",
  "/privacy-policy",
  "/terms-of-service",
  "/cookies-policy",
];
const SEARCH_AND_SOCIAL = [
  "https://www.google.com/",
  "https://www.bing.com/",
  "https://duckduckgo.com/",
  "https://www.linkedin.com/feed/",
  "https://lnkd.in/abc",
  "https://t.co/xyz",
  "https://news.ycombinator.com/item?id=1",
  "https://www.reddit.com/r/sales/comments/1",
  "https://www.facebook.com/",
  "https://search.yahoo.com/",
  "https://www.g2.com/products/revwise",
  "https://www.producthunt.com/posts/revwise",
];
const CAMPAIGNS = ["spring-launch", "webinar-q2", "newsletter-may", "linkedin-ads", "g2-review"];
const AGENTS = [
  (v: number) =>
    `Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/${v}.0.0.0 Safari/537.36`,
  (v: number) =>
    `Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.${v % 7} Safari/605.1.15`,
  (v: number) =>
    `Mozilla/5.0 (iPhone; CPU iPhone OS 17_${v % 6} like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.${v % 6} Mobile/15E148 Safari/604.1`,
  (v: number) =>
    `Mozilla/5.0 (Linux; Android 14; Pixel ${v % 9}) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/${v}.0.0.0 Mobile Safari/537.36`,
  (v: number) =>
    `Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:${v}.0) Gecko/20100101 Firefox/${v}.0`,
  (v: number) =>
    `Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/${v}.0.0.0 Safari/537.36 Edg/${v}.0.0.0`,
  (v: number) =>
    `Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/${v}.0.0.0 Safari/537.36`,
];

/** A deterministic sequence in [0, 1) (mulberry32), so runs are comparable. */
function random(seed: number) {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = Math.imul(s ^ (s >>> 15), 1 | s);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

/** Skewed choice: the first items far more often (as real pages and referrers are). */
const skewed = <T>(items: T[], r: number) => items[Math.floor(items.length * r * r * r)]!;

type View = { url: string; headers: Record<string, string> };

function views(): View[] {
  const next = random(42);
  const out: View[] = [];
  for (let i = 0; i < VIEWS; i++) {
    // One client in fifty views sends fresh values on every view: a flood from one address.
    if (i % 50 === 0) {
      out.push({
        url: `/?utm_campaign=flood-${i}`,
        headers: {
          "user-agent": AGENTS[0]!(i),
          referer: `https://flood-${i}.example/`,
          "x-forwarded-for": "198.51.100.250",
        },
      });
      continue;
    }
    const client = Math.floor(next() * CLIENTS);
    const ip = `10.${client >> 16}.${(client >> 8) & 255}.${client & 255}`;
    const page = skewed(PAGES, next());
    const kind = next();
    const referer =
      kind < 0.55
        ? undefined
        : kind < 0.9
          ? skewed(SEARCH_AND_SOCIAL, next())
          : `https://blog-${Math.floor(next() * 5000)}.example/post`;
    const c = next();
    const campaign =
      c < 0.8 ? "" : c < 0.97 ? skewed(CAMPAIGNS, next()) : `mail-${Math.floor(next() * 2000)}`;
    out.push({
      url: campaign ? `${page}?utm_campaign=${campaign}&utm_source=x` : page,
      headers: {
        "user-agent": AGENTS[client % AGENTS.length]!(110 + (client % 25)),
        ...(referer && { referer }),
        "x-forwarded-for": ip,
      },
    });
  }
  return out;
}

async function siteApp(db: Database): Promise<FastifyInstance> {
  const dir = tempDir("revwise-bench-analytics-");
  for (const page of PAGES) {
    const file = path.join(dir, page === "/" ? "index.html" : `${page.slice(1)}/index.html`);
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(
      file,
      `<!doctype html><html><head><meta name="revwise-anon-key" content="${ANON_KEY_PLACEHOLDER}"><title>${page}</title></head><body>${page}</body></html>`,
    );
  }
  for (const rel of [
    "__not-found/index.html",
    "blog/__missing/index.html",
    "__spa-fallback.html",
  ]) {
    fs.mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true });
    fs.writeFileSync(path.join(dir, rel), "<!doctype html><title>x</title>");
  }
  const site = await loadSite(dir, { anonKey: "k", siteUrl: SITE_URL });
  return buildTestApp(db, { site, env: { SITE_URL, TRUST_PROXY: "loopback", LOG_LEVEL: "warn" } });
}

const TABLES = ["page_views", "visitors", "daily_visitors", "day_values", "salts"];

type Size = {
  bytes: number;
  rows: number;
  byTable: Record<string, { rows: number; bytes: number }>;
};

async function measure(db: Database): Promise<Size> {
  const size: Size = { bytes: 0, rows: 0, byTable: {} };
  for (const t of TABLES) {
    const [row] = await db.query<{ bytes: string; rows: number }>(
      `SELECT pg_total_relation_size('analytics.${t}')::text AS bytes,
         (SELECT count(*)::int FROM analytics.${t}) AS rows`,
    );
    size.bytes += Number(row!.bytes);
    size.rows += row!.rows;
    size.byTable[t] = { rows: row!.rows, bytes: Number(row!.bytes) };
  }
  return size;
}

/**
 * The tables' size once compacted (VACUUM FULL). On a PostgreSQL server shared with other work, a
 * transaction running elsewhere can keep deleted rows for a while: compacted again, a second
 * apart, until the size stops falling (at most 10 times).
 */
async function compacted(db: Database): Promise<Size> {
  let size = await measure(db);
  for (let i = 0; i < 10; i++) {
    await db.exec(`VACUUM FULL ${TABLES.map((t) => `analytics.${t}`).join(", ")}`);
    const again = await measure(db);
    if (i > 0 && again.bytes >= size.bytes) return again;
    size = again;
    await new Promise((resolve) => setTimeout(resolve, 1000));
  }
  return size;
}

async function run(engine: string, db: Database): Promise<Record<string, string | number>[]> {
  const app = await siteApp(db);
  const before = await compacted(db);
  const all = views();
  const started = performance.now();
  for (let i = 0; i < all.length; i += AT_ONCE)
    await Promise.all(
      all.slice(i, i + AT_ONCE).map((v) => app.inject({ url: v.url, headers: v.headers })),
    );
  await app.close(); // writes what was gathered
  const seconds = (performance.now() - started) / 1000;
  const written = await measure(db);
  const [counted] = await db.query<{ views: number }>(
    "SELECT coalesce(sum(views), 0)::int AS views FROM analytics.page_views",
  );
  await countPastVisitors(db, new Date(Date.now() + 2 * 86_400_000));
  const kept = await compacted(db);
  const perMillion = (n: number) => Math.round((n * 1_000_000) / VIEWS);
  const row = (stage: string, m: Size) => ({
    engine,
    stage,
    rows: m.rows - before.rows,
    KB: fmt((m.bytes - before.bytes) / 1024, 0),
    "rows / M views": perMillion(m.rows - before.rows),
    "MB / M views": fmt(perMillion(m.bytes - before.bytes) / 1024 / 1024, 2),
    "rows (KB) by table": TABLES.map(
      (t) =>
        `${t} ${m.byTable[t]!.rows - before.byTable[t]!.rows} (${fmt((m.byTable[t]!.bytes - before.byTable[t]!.bytes) / 1024)})`,
    ).join(", "),
  });
  console.log(
    `${engine}: ${VIEWS} views in ${fmt(seconds, 1)} s, ${counted!.views} counted (the flooding client's beyond its budget are not)`,
  );
  return [row("views written (day's codes)", written), row("codes counted (hourly job)", kept)];
}

const rows: Record<string, string | number>[] = [];
if (await postgresAvailable()) {
  const database = await createTestDatabase();
  const db = await openPostgres(database.url, 4);
  try {
    rows.push(...(await run("PostgreSQL", db)));
  } finally {
    await db.close();
    await database.drop();
  }
} else console.error("PostgreSQL not reachable: measured on PGlite only");
{
  const db = await openPglite(undefined);
  try {
    rows.push(...(await run("PGlite", db)));
  } finally {
    await db.close();
  }
}
table(rows);
