// Page views, counted by the server as it serves each prerendered page (every page is a full
// HTML document revalidated on each view, so no script and no cookie are needed): per UTC day,
// page, referring site (its host; "" for a direct visit or one from this site) and UTM campaign.
// A unique visitor is sha256(day's salt, client address, user agent): neither is stored, and the
// salt is deleted once its day is over. Visitors who send Do-Not-Track or Sec-GPC, and robots,
// are not counted. Views are gathered in memory and written every few seconds in two statements.
import crypto from "node:crypto";
import type { FastifyRequest } from "fastify";
import type { Database, Queryable } from "../db/database.ts";
import { splitTarget } from "../http/request-target.ts";

/** Robots, previews and tools, by their user agents (browsers' contain none of these words). */
const NOT_A_PERSON =
  /bot|crawl|spider|slurp|lighthouse|headless|preview|monitor|facebookexternalhit|curl|wget|python|java\/|go-http|okhttp|axios|node|undici|^$/i;

const day = (at: Date) => at.toISOString().slice(0, 10);

export class PageViews {
  private views = new Map<
    string,
    { day: string; path: string; referrer: string; campaign: string; views: number }
  >();
  private visitors = new Map<string, { day: string; path: string; visitor: Buffer }>();
  private salt: { day: string; salt: Promise<Buffer> } | undefined;
  private readonly pending = new Set<Promise<void>>();
  private readonly db: Database;
  private readonly siteHost: string;

  constructor(db: Database, siteUrl: string) {
    this.db = db;
    this.siteHost = new URL(siteUrl).host;
  }

  /** Notes a served page, if a person asked for it and did not ask not to be counted. */
  record(request: FastifyRequest, path: string, at = new Date()): void {
    const headers = request.headers;
    const agent = headers["user-agent"] ?? "";
    if (headers.dnt === "1" || headers["sec-gpc"] === "1" || NOT_A_PERSON.test(agent)) return;
    const today = day(at);
    const referrer = this.referringSite(headers.referer);
    const campaign = campaignOf(request.url);
    const viewKey = `${today}\n${path}\n${referrer}\n${campaign}`;
    const counted = this.views.get(viewKey);
    if (counted) counted.views += 1;
    else this.views.set(viewKey, { day: today, path, referrer, campaign, views: 1 });
    // The visitor waits for the day's salt (read once a day): flush() waits for it in turn.
    const noted = this.saltOf(today).then((salt) => {
      const visitor = crypto
        .createHash("sha256")
        .update(salt)
        .update(`${request.ip}\n${agent}`)
        .digest()
        .subarray(0, 16);
      this.visitors.set(`${today}\n${path}\n${visitor.toString("hex")}`, {
        day: today,
        path,
        visitor,
      });
    });
    this.pending.add(noted);
    void noted.finally(() => this.pending.delete(noted)).catch(() => {});
  }

  /** Writes what was gathered (the counts add up; a visitor already seen that day is kept once). */
  async flush(): Promise<void> {
    const failures = (await Promise.allSettled([...this.pending])).filter(
      (r) => r.status === "rejected",
    );
    const views = [...this.views.values()];
    const visitors = [...this.visitors.values()];
    this.views = new Map();
    this.visitors = new Map();
    if (views.length > 0)
      await this.db.query(
        `INSERT INTO analytics.page_views (day, path, referrer, campaign, views)
         SELECT * FROM unnest($1::date[], $2::text[], $3::text[], $4::text[], $5::int[])
         ON CONFLICT (day, path, referrer, campaign) DO UPDATE SET views = page_views.views + EXCLUDED.views`,
        [
          views.map((v) => v.day),
          views.map((v) => v.path),
          views.map((v) => v.referrer),
          views.map((v) => v.campaign),
          views.map((v) => v.views),
        ],
      );
    if (visitors.length > 0)
      await this.db.query(
        `INSERT INTO analytics.visitors (day, path, visitor)
         SELECT * FROM unnest($1::date[], $2::text[], $3::bytea[]) ON CONFLICT DO NOTHING`,
        [visitors.map((v) => v.day), visitors.map((v) => v.path), visitors.map((v) => v.visitor)],
      );
    if (failures.length > 0) throw (failures[0] as PromiseRejectedResult).reason;
  }

  /** The salt of the day, the same for every instance; the salts of past days are deleted. */
  private saltOf(today: string): Promise<Buffer> {
    if (this.salt?.day !== today) {
      const salt = this.db
        .transaction(async (tx) => {
          await tx.query("DELETE FROM analytics.salts WHERE day < $1::date", [today]);
          await tx.query(
            "INSERT INTO analytics.salts (day, salt) VALUES ($1::date, $2) ON CONFLICT (day) DO NOTHING",
            [today, crypto.randomBytes(32)],
          );
          const [row] = await tx.query<{ salt: Buffer }>(
            "SELECT salt FROM analytics.salts WHERE day = $1::date",
            [today],
          );
          return Buffer.from(row!.salt);
        })
        .catch((err: unknown) => {
          this.salt = undefined; // asked again next time
          throw err;
        });
      this.salt = { day: today, salt };
    }
    return this.salt.salt;
  }

  /** The referring site's host; "" for none, this site, or something that is not a URL. */
  private referringSite(referer: string | undefined): string {
    if (!referer) return "";
    try {
      const host = new URL(referer).host.toLowerCase().slice(0, 255);
      return host === this.siteHost ? "" : host;
    } catch {
      return "";
    }
  }
}

/** The UTM campaign of the page's address ("" without one). */
function campaignOf(url: string): string {
  const { query } = splitTarget(url);
  return (new URLSearchParams(query).get("utm_campaign") ?? "").slice(0, 100);
}

type PageStats = {
  day: string;
  path: string;
  views: number;
  visitors: number;
  leads: number;
};

/**
 * Views, unique visitors and leads (the leads whose form was sent from the page) per day and
 * page, between two days (inclusive), newest day first.
 */
export async function pageStats(q: Queryable, from: string, to: string): Promise<PageStats[]> {
  // The leads the inbox lists (a newsletter address counts once confirmed).
  return q.query<PageStats>(
    `WITH v AS (
       SELECT day, path, sum(views)::int AS views FROM analytics.page_views
       WHERE day BETWEEN $1::date AND $2::date GROUP BY day, path
     ), u AS (
       SELECT day, path, count(*)::int AS visitors FROM analytics.visitors
       WHERE day BETWEEN $1::date AND $2::date GROUP BY day, path
     ), l AS (
       SELECT (created_at AT TIME ZONE 'UTC')::date AS day, page AS path, count(*)::int AS leads
       FROM public.leads WHERE created_at >= $1::date AND created_at < $2::date + 1 GROUP BY 1, 2
     )
     SELECT to_char(day, 'YYYY-MM-DD') AS day, path, coalesce(v.views, 0) AS views,
       coalesce(u.visitors, 0) AS visitors, coalesce(l.leads, 0) AS leads
     FROM v FULL JOIN l USING (day, path) LEFT JOIN u USING (day, path)
     ORDER BY day DESC, views DESC, path`,
    [from, to],
  );
}
