// What the team workspace reads and writes through /rest/v1 with the member's session, in
// PostgREST's syntax (supabase-js builds it): the leads' filters and search, pages of 50 with an
// exact count, CSV downloads of a filter, and the sums the analytics show. A refusal or bad input
// comes back as the server's message (thrown), never as an empty list.
import type { SupabaseClient } from "@supabase/supabase-js";
import type { LeadKindName, LeadStatus, LeadWork, SourceStat } from "../../common/workspace.ts";
import { getSupabase } from "./supabase.ts";

export const PAGE_SIZE = 50;

/** A filter builder of any relation (supabase-js's `from(name).select(…)`). */
export type Query = ReturnType<ReturnType<SupabaseClient["from"]>["select"]>;

/** Rows and the exact count, or the server's message as the error. */
export function rowsOf<T>(result: {
  data: unknown;
  error: { message: string } | null;
  count?: number | null;
}): { rows: T[]; count: number } {
  if (result.error) throw new Error(result.error.message);
  const rows = (result.data ?? []) as T[];
  return { rows, count: result.count ?? rows.length };
}

/** The rows of page `page` (0-based): supabase-js's range sends them as a Range header. */
export const pageRange = (page: number): [number, number] => [
  page * PAGE_SIZE,
  page * PAGE_SIZE + PAGE_SIZE - 1,
];

/**
 * An `estimated` count is exact up to this many rows and the planner's estimate beyond (the
 * server's most rows per request, as PostgREST counts): past it the page says "about".
 */
const EXACT_UP_TO = 1000;

/** The rows a page holds and how many the filter selects, maybe estimated. */
export type Page<T> = { rows: T[]; count: number; estimated: boolean };

/** A count as the workspace writes it: "1,234". */
export const number = (n: number) => n.toLocaleString("en-US");

/** A thing's name in the singular and in the plural: ["lead", "leads"]. */
export type Noun = readonly [one: string, other: string];

/** "1 page", "12 pages". */
export const countOf = (n: number, [one, other]: Noun) => `${number(n)} ${n === 1 ? one : other}`;

/**
 * "1–50 of 123" (an en dash), "1–50 of about 1,200,000", "0 of 0" when there is nothing; with
 * `noun`, the things named after the count ("1–1 of 1 lead").
 */
export function rangeLabel(
  page: number,
  shown: number,
  total: number,
  estimated = false,
  noun?: Noun,
): string {
  const of = `of ${estimated ? "about " : ""}${noun ? countOf(total, noun) : number(total)}`;
  if (shown === 0) return `0 ${of}`;
  const first = page * PAGE_SIZE + 1;
  return `${number(first)}–${number(first + shown - 1)} ${of}`;
}

/**
 * The search as a LIKE pattern of the `leads` view's `search` column (name, email and company as
 * one text, indexed for search: decision 0029). `*` is PostgREST's wildcard: it becomes `_`
 * (LIKE's one-character wildcard, so "a*b" still finds "a*b"); LIKE's own `%`, `_` and `\` are
 * escaped to mean themselves. Commas and parentheses need nothing: the value is one filter's,
 * not an item of an `or=(…)` list.
 */
export function searchPattern(q: string): string | null {
  const text = q
    .trim()
    .replace(/[\\%_]/g, "\\$&")
    .replace(/\*/g, "_");
  return text ? `*${text}*` : null;
}

/** The day after an ISO day: a "to" date includes the whole of that day. */
export function nextDay(day: string): string {
  const d = new Date(`${day}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + 1);
  return d.toISOString().slice(0, 10);
}

/** Rows created from the day `from` to the day `to`, both included ("" for no bound). */
export function inDays(query: Query, { from, to }: { from: string; to: string }): Query {
  let q = query;
  if (from) q = q.gte("created_at", from);
  if (to) q = q.lt("created_at", nextDay(to));
  return q;
}

/** Rows whose `column` contains the words searched (searchPattern), when there are any. */
export function searched(query: Query, column: string, words: string): Query {
  const pattern = searchPattern(words);
  return pattern ? query.ilike(column, pattern) : query;
}

/** A lead as the inbox lists it (the `leads` view's columns). */
export type LeadRow = {
  id: string;
  kind: LeadKindName;
  created_at: string;
  email: string;
  name: string | null;
  company: string | null;
  status: LeadStatus;
  owner_email: string | null;
  due_on: string | null;
};

/** The inbox's columns of a lead. */
export const LEAD_ROW_COLUMNS = "id,kind,created_at,email,name,company,status,owner_email,due_on";

/** A lead with everything its detail shows. */
export type Lead = LeadRow &
  LeadWork & {
    details: Record<string, unknown> | null;
    page: string | null;
    referrer: string | null;
    utm_source: string | null;
    utm_medium: string | null;
    utm_campaign: string | null;
    person: string;
    status_updated_at: string | null;
    status_updated_by_email?: string | null;
  };

/**
 * The inbox's filters: the form, the status (junk only when asked for), the owner (a member's id:
 * "my leads" is the member's own), the dates and the search.
 */
export type LeadFilters = {
  kind: string;
  status: string;
  owner: string;
  from: string;
  to: string;
  q: string;
};
export const NO_LEAD_FILTERS: LeadFilters = {
  kind: "",
  status: "",
  owner: "",
  from: "",
  to: "",
  q: "",
};

/**
 * The inbox's filters on any query of the `leads` view (the list and its CSV share them). Junk
 * is left out unless the status filter asks for it. A member's leads come with their due ones
 * first, the most overdue at the top.
 */
export function filterLeads(query: Query, f: LeadFilters): Query {
  const q = whereLeads(query, f);
  return f.owner ? q.order("due_on", { ascending: true, nullsFirst: false }) : q;
}

/** The leads the inbox's filters select, in no order. */
function whereLeads(query: Query, f: LeadFilters): Query {
  let q = query;
  if (f.kind) q = q.eq("kind", f.kind);
  q = f.status ? q.eq("status", f.status) : q.neq("status", "junk");
  if (f.owner) q = q.eq("owner_id", f.owner);
  return searched(inDays(q, f), "search", f.q);
}

/**
 * The leads either side of one among those the filters select, by the time they arrived: the
 * previous is the next newer (above it in the inbox), the next the next older; null at an end.
 */
export async function neighboursOf(
  lead: { created_at: string },
  f: LeadFilters,
): Promise<{ previous: string | null; next: string | null }> {
  const supabase = await getSupabase();
  const one = async (newer: boolean) => {
    const q = whereLeads(supabase.from("leads").select("id"), f);
    const { rows } = rowsOf<{ id: string }>(
      await (newer ? q.gt("created_at", lead.created_at) : q.lt("created_at", lead.created_at))
        .order("created_at", { ascending: newer })
        .limit(1),
    );
    return rows[0]?.id ?? null;
  };
  const [previous, next] = await Promise.all([one(true), one(false)]);
  return { previous, next };
}

/** A member of the team, as a lead's owner is chosen or filtered by. */
export type Member = { id: string; email: string };

/** The team's members by address. */
export async function readMembers(): Promise<Member[]> {
  const supabase = await getSupabase();
  return rowsOf<Member>(await supabase.from("team_members").select("id,email").order("email")).rows;
}

/**
 * One page of a relation, newest first, with the count of what the filter selects: exact, or
 * `estimated` where counting every row would cost too much (the inbox of a million leads).
 */
export async function readPage<T>(
  relation: string,
  columns: string,
  page: number,
  filter: (q: Query) => Query = (q) => q,
  count: "exact" | "estimated" = "exact",
  /** What orders rows of the same time: their id, or the order they were written in. */
  tiebreak = "id",
): Promise<Page<T>> {
  const supabase = await getSupabase();
  const [from, to] = pageRange(page);
  const query = filter(supabase.from(relation).select(columns, { count }));
  const read = rowsOf<T>(
    await query
      .order("created_at", { ascending: false })
      .order(tiebreak, { ascending: false })
      .range(from, to),
  );
  // A page shorter than a page is the last: the total is known, whatever was estimated (the
  // planner's estimate of a new site's few leads can be thousands).
  if (read.rows.length < PAGE_SIZE)
    return { ...read, count: from + read.rows.length, estimated: false };
  return { ...read, estimated: count === "estimated" && read.count > EXACT_UP_TO };
}

/** Every row the filter selects as CSV (`Accept: text/csv`), saved as a UTF-8 download. */
export async function downloadCsv(
  relation: string,
  filter: (q: Query) => Query,
  filename: string,
  /** The columns, in PostgREST's select (`"Label":column` names a column by its label). */
  columns = "*",
): Promise<void> {
  const supabase = await getSupabase();
  const { data, error } = await filter(supabase.from(relation).select(columns)).csv();
  if (error) throw new Error(error.message);
  // A byte order mark first: Excel reads a CSV file without one in the system's code page, which
  // garbles every accented name.
  const url = URL.createObjectURL(new Blob(["\uFEFF", data], { type: "text/csv;charset=utf-8" }));
  const link = Object.assign(document.createElement("a"), { href: url, download: filename });
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

/** The file name of an export made today: `revwise-leads-2026-11-26.csv`. */
export const csvName = (what: string, now = new Date()) =>
  `revwise-${what}-${now.toISOString().slice(0, 10)}.csv`;

/**
 * A day's figures of one page; `path` is null for leads whose form did not say its page.
 * `converted`: the page's counted visitors who sent a form from it (junk left out).
 */
type PageStat = {
  day: string;
  path: string | null;
  views: number;
  visitors: number;
  leads: number;
  converted: number;
};
export type PathTotals = {
  path: string;
  views: number;
  visitors: number;
  leads: number;
  converted: number;
};
export type DayTotals = { day: string; views: number; leads: number };

/** The last `days` days up to `today` (ISO days, both included). */
export function lastDays(days: number, today = new Date()): { from: string; to: string } {
  const to = today.toISOString().slice(0, 10);
  const start = new Date(`${to}T00:00:00Z`);
  start.setUTCDate(start.getUTCDate() - (days - 1));
  return { from: start.toISOString().slice(0, 10), to };
}

/** Each page's views, visitors and leads summed over the range, most viewed first ("" unknown). */
export function totalsByPath(rows: PageStat[]): PathTotals[] {
  const byPath = new Map<string, PathTotals>();
  for (const r of rows) {
    const path = r.path ?? "";
    const t = byPath.get(path) ?? { path, views: 0, visitors: 0, leads: 0, converted: 0 };
    t.views += r.views;
    t.visitors += r.visitors;
    t.leads += r.leads;
    t.converted += r.converted;
    byPath.set(path, t);
  }
  return [...byPath.values()].sort((a, b) => b.views - a.views || a.path.localeCompare(b.path));
}

/** Views and leads of every day of the range, days without any counted as zero. */
export function totalsByDay(rows: PageStat[], from: string, to: string): DayTotals[] {
  const byDay = new Map<string, DayTotals>();
  for (let day = from; day <= to; day = nextDay(day)) byDay.set(day, { day, views: 0, leads: 0 });
  for (const r of rows) {
    const t = byDay.get(r.day);
    if (!t) continue;
    t.views += r.views;
    t.leads += r.leads;
  }
  return [...byDay.values()];
}

/** Converted visitors of the visitors as a percentage with one decimal ("2.5 %"), "–" without any. */
export const conversionRate = (converted: number, visitors: number) =>
  visitors === 0 ? "–" : `${((converted / visitors) * 100).toFixed(1)} %`;

/** The sources of the range, most visitors first (the server answers the first 200). */
export async function readSourceStats(from: string, to: string): Promise<SourceStat[]> {
  const supabase = await getSupabase();
  return rowsOf<SourceStat>(
    await supabase.from("source_stats").select("*").gte("day", from).lte("day", to),
  ).rows;
}

/** Every page_stats row of the range: the server answers the whole range (at most 366 days). */
export async function readPageStats(from: string, to: string): Promise<PageStat[]> {
  const supabase = await getSupabase();
  return rowsOf<PageStat>(
    await supabase.from("page_stats").select("*").gte("day", from).lte("day", to),
  ).rows;
}
