// Page views, counted by the server as it serves each prerendered page (every page is a full
// HTML document revalidated on each view, so no script and no cookie are needed): per UTC day,
// page, referring site (its host; "" for a direct visit or one from this site) and UTM campaign
// (view-values.ts). A unique visitor is sha256(day's salt, client address, browser kind): neither
// is stored, and the salt is deleted once its day is over. Visitors who send Do-Not-Track or
// Sec-GPC, and robots, are not counted. Views are gathered in memory and written every few seconds
// in a few statements.
//
// Each visitor's day is also kept with the source of its first counted view that day (the
// referring site, the UTM source, medium and campaign) and the views it made. A lead sent from
// the same address and browser kind is tied to that visit (analytics.lead_visits: the visit's
// source, and the form's page when the visitor's view of it was counted): the conversions of the
// workspace's pages and Sources are the counted visitors whose leads are not junk, so never above
// 100 %.
//
// What one client can add is bounded: an address has PAGE_VIEW_BUDGET views counted (its page is
// always served; views beyond the budget are not counted), its browser kinds are few, and a day
// keeps at most DAY_LIMITS referring sites and campaigns, later ones counted as OTHER. The
// visitors' codes of past days become counts (visitor-counts.ts).
import crypto from "node:crypto";
import type { IncomingHttpHeaders } from "node:http";
import type { SourceStat } from "../../common/workspace.ts";
import type { Database, Queryable } from "../db/database.ts";
import { clientKey } from "../platform/addresses.ts";
import { MemoryBuckets, type BucketRule, type BucketStore } from "../platform/token-bucket.ts";
import { browserClass, OTHER, referringSite, siteHostOf, utmTagsOf } from "./view-values.ts";

/** What counting a page view reads of its request: its headers, its client's address, its URL. */
export type ViewRequest = { headers: IncomingHttpHeaders; ip: string; url: string };

/** Robots, previews and tools, by their user agents (browsers' contain none of these words). */
const NOT_A_PERSON =
  /bot|crawl|spider|slurp|lighthouse|headless|preview|monitor|facebookexternalhit|curl|wget|python|java\/|go-http|okhttp|axios|node|undici|^$/i;

/**
 * The views one client address has counted: a burst of 60, then one every 30 seconds (120 an
 * hour, far more than a person reads). Shared by the instances through Redis when configured.
 */
export const PAGE_VIEW_BUDGET: BucketRule = { capacity: 60, perSecond: 1 / 30 };

/** The referring sites and the campaigns a day keeps, each; later new ones count as OTHER. */
export const DAY_LIMITS = { referrers: 300, campaigns: 50 };

type Options = {
  /** The per-address budgets of PAGE_VIEW_BUDGET (this process's own by default). */
  budget?: BucketStore;
  dayLimits?: { referrers: number; campaigns: number };
};

const day = (at: Date) => at.toISOString().slice(0, 10);

export class PageViews {
  private views = new Map<
    string,
    { day: string; path: string; referrer: string; campaign: string; views: number }
  >();
  private visitors = new Map<string, { day: string; path: string; visitor: Buffer }>();
  private visits = new Map<
    string,
    {
      day: string;
      visitor: Buffer;
      referrer: string;
      source: string;
      medium: string;
      campaign: string;
      views: number;
    }
  >();
  /**
   * Leads sent, by id, with their visitor's address and browser kind until the next flush makes
   * its code (nothing is asked of the database on the form's request); `retried` once a flush
   * found no visit of theirs yet.
   */
  private conversions = new Map<
    string,
    {
      day: string;
      client: string;
      browser: string;
      leadId: string;
      path: string;
      retried: boolean;
    }
  >();
  private salt: { day: string; salt: Promise<Buffer> } | undefined;
  private readonly pending = new Set<Promise<void>>();
  private readonly db: Database;
  private readonly siteHost: string;
  private readonly budget: BucketStore;
  private readonly dayLimits: { referrers: number; campaigns: number };

  constructor(db: Database, siteUrl: string, opts: Options = {}) {
    this.db = db;
    this.siteHost = siteHostOf(siteUrl);
    this.budget = opts.budget ?? new MemoryBuckets();
    this.dayLimits = opts.dayLimits ?? DAY_LIMITS;
  }

  /**
   * Notes a served page, if a person asked for it, did not ask not to be counted, and their
   * address has views of its budget left.
   */
  record(request: ViewRequest, path: string, at?: Date): void {
    const headers = request.headers;
    const agent = headers["user-agent"] ?? "";
    if (!counted(request)) return;
    const today = day(at ?? new Date());
    const client = clientKey(request.ip);
    const referrer = referringSite(headers.referer, this.siteHost);
    const tags = utmTagsOf(request.url);
    const { campaign } = tags;
    // The budget's answer and the day's salt (read once a day) come later: flush() waits for them.
    const noted = this.budget.take(client, PAGE_VIEW_BUDGET).then(async (spent) => {
      if (!spent.ok) return;
      const viewKey = `${today}\n${path}\n${referrer}\n${campaign}`;
      const counted = this.views.get(viewKey);
      if (counted) counted.views += 1;
      else this.views.set(viewKey, { day: today, path, referrer, campaign, views: 1 });
      const visitor = await this.visitorCode(today, client, browserClass(agent));
      const code = visitor.toString("hex");
      this.visitors.set(`${today}\n${path}\n${code}`, { day: today, path, visitor });
      // The day's first counted view names the visit's source; later ones add their views.
      const visit = this.visits.get(`${today}\n${code}`);
      if (visit) visit.views += 1;
      else
        this.visits.set(`${today}\n${code}`, { day: today, visitor, referrer, ...tags, views: 1 });
    });
    this.track(noted);
  }

  /**
   * Notes that a lead was sent from this request's address and browser kind, from the page
   * `path` (as the form said): tied to its visitor's day, if that visitor was counted (a visitor
   * who asked not to be counted, or a robot, converts nothing).
   */
  converted(request: ViewRequest, lead: { id: string; path?: string }, at = new Date()): void {
    if (!counted(request)) return;
    const today = day(at);
    const client = clientKey(request.ip);
    const browser = browserClass(request.headers["user-agent"] ?? "");
    this.conversions.set(lead.id, {
      day: today,
      client,
      browser,
      leadId: lead.id,
      path: lead.path ?? "",
      retried: false,
    });
  }

  /** A visitor's code on `today`: the day's salt, the client's address and browser kind. */
  private async visitorCode(today: string, client: string, browser: string): Promise<Buffer> {
    const salt = await this.saltOf(today);
    return crypto
      .createHash("sha256")
      .update(salt)
      .update(`${client}\n${browser}`)
      .digest()
      .subarray(0, 16);
  }

  /** flush() waits for what a request started (its budget, the day's salt). */
  private track(noted: Promise<void>): void {
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
    const visits = [...this.visits.values()];
    const conversions = [...this.conversions.values()];
    this.views = new Map();
    this.visitors = new Map();
    this.visits = new Map();
    this.conversions = new Map();
    if (views.length > 0)
      await this.db.query(
        // The batch's referring sites and campaigns already kept for their day, and the new ones
        // the day still has room for (most viewed first), are kept; the others count as OTHER.
        // Two instances writing at once may each fill the room: a day keeps at most that many
        // more, and a value one of them adds at the same moment counts as OTHER in the other.
        `WITH batch AS (
           SELECT * FROM unnest($1::date[], $2::text[], $3::text[], $4::text[], $5::int[])
             AS b(day, path, referrer, campaign, views)
         ), named AS (
           SELECT day, 'referrer' AS kind, referrer AS value, sum(views) AS views
           FROM batch WHERE referrer <> '' GROUP BY day, referrer
           UNION ALL
           SELECT day, 'campaign', campaign, sum(views) FROM batch WHERE campaign <> '' GROUP BY day, campaign
         ), known AS (
           SELECT n.day, n.kind, n.value, EXISTS (
             SELECT 1 FROM analytics.day_values AS d
             WHERE d.day = n.day AND d.kind = n.kind AND d.value = n.value
           ) AS kept, n.views
           FROM named AS n
         ), ranked AS (
           SELECT day, kind, value,
             row_number() OVER (PARTITION BY day, kind ORDER BY views DESC, value) AS rank
           FROM known WHERE NOT kept
         ), admitted AS (
           INSERT INTO analytics.day_values (day, kind, value)
           SELECT r.day, r.kind, r.value FROM ranked AS r
           WHERE r.rank + (
             SELECT count(*) FROM analytics.day_values AS d WHERE d.day = r.day AND d.kind = r.kind
           ) <= CASE r.kind WHEN 'referrer' THEN $6::int ELSE $7::int END
           ON CONFLICT DO NOTHING
           RETURNING day, kind, value
         ), allowed AS (
           SELECT day, kind, value FROM known WHERE kept UNION ALL SELECT * FROM admitted
         )
         INSERT INTO analytics.page_views (day, path, referrer, campaign, views)
         SELECT b.day, b.path,
           CASE WHEN b.referrer = '' OR r.value IS NOT NULL THEN b.referrer ELSE $8 END,
           CASE WHEN b.campaign = '' OR c.value IS NOT NULL THEN b.campaign ELSE $8 END,
           sum(b.views)::int
         FROM batch AS b
         LEFT JOIN allowed AS r ON r.day = b.day AND r.kind = 'referrer' AND r.value = b.referrer
         LEFT JOIN allowed AS c ON c.day = b.day AND c.kind = 'campaign' AND c.value = b.campaign
         GROUP BY 1, 2, 3, 4
         ON CONFLICT (day, path, referrer, campaign) DO UPDATE SET views = page_views.views + EXCLUDED.views`,
        [
          views.map((v) => v.day),
          views.map((v) => v.path),
          views.map((v) => v.referrer),
          views.map((v) => v.campaign),
          views.map((v) => v.views),
          this.dayLimits.referrers,
          this.dayLimits.campaigns,
          OTHER,
        ],
      );
    if (visitors.length > 0)
      await this.db.query(
        `INSERT INTO analytics.visitors (day, path, visitor)
         SELECT * FROM unnest($1::date[], $2::text[], $3::bytea[]) ON CONFLICT DO NOTHING`,
        [visitors.map((v) => v.day), visitors.map((v) => v.path), visitors.map((v) => v.visitor)],
      );
    if (visits.length > 0)
      await this.db.query(
        `INSERT INTO analytics.visit_sources (day, visitor, referrer, source, medium, campaign, views)
         SELECT * FROM unnest($1::date[], $2::bytea[], $3::text[], $4::text[], $5::text[], $6::text[], $7::int[])
         ON CONFLICT (day, visitor) DO UPDATE SET views = visit_sources.views + EXCLUDED.views`,
        [
          visits.map((v) => v.day),
          visits.map((v) => v.visitor),
          visits.map((v) => v.referrer),
          visits.map((v) => v.source),
          visits.map((v) => v.medium),
          visits.map((v) => v.campaign),
          visits.map((v) => v.views),
        ],
      );
    // A form sent on a day now over is dropped: that day's salt is gone, so is its visitor.
    const today = day(new Date());
    const coded = await Promise.all(
      conversions
        .filter((c) => c.day === today)
        .map(async (c) => ({ ...c, visitor: await this.visitorCode(c.day, c.client, c.browser) })),
    );
    if (coded.length > 0) {
      // Tied to the visit's row (another instance may not have written it yet: one more flush's
      // time), and to the form's page when the visitor's view of that page was counted.
      const tied = await this.db.query<{ lead_id: string }>(
        `INSERT INTO analytics.lead_visits
           (lead_id, day, visitor, path, referrer, source, medium, campaign)
         SELECT c.lead_id, s.day, s.visitor, v.path, s.referrer, s.source, s.medium, s.campaign
         FROM unnest($1::uuid[], $2::date[], $3::bytea[], $4::text[]) AS c(lead_id, day, visitor, path)
         JOIN analytics.visit_sources AS s ON s.day = c.day AND s.visitor = c.visitor
         LEFT JOIN analytics.visitors AS v
           ON v.day = c.day AND v.path = c.path AND v.visitor = c.visitor
         ON CONFLICT (lead_id) DO NOTHING
         RETURNING lead_id`,
        [
          coded.map((c) => c.leadId),
          coded.map((c) => c.day),
          coded.map((c) => c.visitor),
          coded.map((c) => c.path),
        ],
      );
      const found = new Set(tied.map((t) => t.lead_id));
      for (const { visitor: _, ...c } of coded)
        if (!found.has(c.leadId) && !c.retried)
          this.conversions.set(c.leadId, { ...c, retried: true });
    }
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
}

/** Whether a request's visitor is counted: a person's browser that did not ask not to be. */
function counted(request: ViewRequest): boolean {
  const { headers } = request;
  return (
    headers.dnt !== "1" &&
    headers["sec-gpc"] !== "1" &&
    !NOT_A_PERSON.test(headers["user-agent"] ?? "")
  );
}

type PageStats = {
  day: string;
  path: string;
  views: number;
  visitors: number;
  leads: number;
  converted: number;
};

/**
 * The leads that count toward a conversion: tied to a counted visit (lead_visits) and still
 * leads of the inbox (a newsletter address once confirmed; junk left out), between two days.
 */
const CONVERTING = `SELECT lv.* FROM analytics.lead_visits AS lv
  JOIN public.leads AS l ON l.id = lv.lead_id AND l.status <> 'junk'
  WHERE lv.day BETWEEN $1::date AND $2::date`;

/**
 * Views, unique visitors (the codes of recent days and the counts of older ones), leads (the
 * leads whose form was sent from the page) and converted visitors (the counted visitors of the
 * page who sent a form from it) per day and page, between two days (inclusive), newest day first.
 */
export async function pageStats(q: Queryable, from: string, to: string): Promise<PageStats[]> {
  // The leads the inbox lists (a newsletter address counts once confirmed), junk left out.
  return q.query<PageStats>(
    `WITH v AS (
       SELECT day, path, sum(views)::int AS views FROM analytics.page_views
       WHERE day BETWEEN $1::date AND $2::date GROUP BY day, path
     ), u AS (
       SELECT day, path, sum(visitors)::int AS visitors FROM (
         SELECT day, path, count(*) AS visitors FROM analytics.visitors
         WHERE day BETWEEN $1::date AND $2::date GROUP BY day, path
         UNION ALL
         SELECT day, path, visitors FROM analytics.daily_visitors
         WHERE day BETWEEN $1::date AND $2::date
       ) AS codes_and_counts GROUP BY day, path
     ), l AS (
       SELECT (created_at AT TIME ZONE 'UTC')::date AS day, page AS path, count(*)::int AS leads
       FROM public.leads
       WHERE created_at >= $1::date AND created_at < $2::date + 1 AND status <> 'junk' GROUP BY 1, 2
     ), c AS (
       SELECT day, path, count(DISTINCT visitor)::int AS converted FROM (${CONVERTING}) AS lv
       WHERE path IS NOT NULL GROUP BY day, path
     )
     SELECT to_char(day, 'YYYY-MM-DD') AS day, path, coalesce(v.views, 0) AS views,
       coalesce(u.visitors, 0) AS visitors, coalesce(l.leads, 0) AS leads,
       coalesce(c.converted, 0) AS converted
     FROM v FULL JOIN l USING (day, path) LEFT JOIN u USING (day, path) LEFT JOIN c USING (day, path)
     ORDER BY day DESC, views DESC, path`,
    [from, to],
  );
}

/**
 * Views, visitors and the visitors who sent a form (`leads`), per source (referring site, UTM
 * source, medium and campaign of each visitor's first view of the day) between two days
 * (inclusive), most visitors first: the codes of recent days and the counts of older ones.
 */
export async function sourceStats(q: Queryable, from: string, to: string): Promise<SourceStat[]> {
  return q.query<SourceStat>(
    `WITH visits AS (
       SELECT referrer, source, medium, campaign, sum(views)::int AS views,
         sum(visitors)::int AS visitors, sum(converted)::int AS marked
       FROM (
         SELECT referrer, source, medium, campaign, views, 1 AS visitors, converted::int AS converted
         FROM analytics.visit_sources WHERE day BETWEEN $1::date AND $2::date
         UNION ALL
         SELECT referrer, source, medium, campaign, views, visitors, converted
         FROM analytics.daily_sources WHERE day BETWEEN $1::date AND $2::date
       ) AS codes_and_counts
       GROUP BY referrer, source, medium, campaign
     ), converted AS (
       SELECT referrer, source, medium, campaign, count(DISTINCT (day, visitor))::int AS visitors
       FROM (${CONVERTING}) AS lv GROUP BY referrer, source, medium, campaign
     )
     -- Visits marked converted before leads were tied to them (migration 0051) count as marked.
     SELECT v.referrer, v.source, v.medium, v.campaign, v.views, v.visitors,
       v.marked + coalesce(c.visitors, 0) AS leads
     FROM visits AS v LEFT JOIN converted AS c USING (referrer, source, medium, campaign)
     ORDER BY v.visitors DESC, v.views DESC, v.referrer, v.source, v.medium, v.campaign
     LIMIT 200`,
    [from, to],
  );
}
