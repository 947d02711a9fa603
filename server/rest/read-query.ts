// PostgREST's read syntax for an exposed relation: `select`, horizontal filters (`column=op.value`,
// `not.`, `or=(…)`, a column filtered several times), `order`, `limit`/`offset` and the `Range`
// header, turned into one parameterised statement (and its count) over the relation's fixed list
// of columns: identifiers never come from the client, values are always parameters.
import { PLANNED_WITH_VALUES } from "../db/database.ts";
import { PostgrestError } from "./errors.ts";
import type { ColumnType, ReadRelation } from "./readable.ts";
import { restTime } from "./times.ts";

export type ReadPlan = {
  sql: string;
  countSql: string;
  /** The exact count up to MAX_ROWS + 1 (reads at most that many rows). */
  cappedCountSql: string;
  /** The planner's estimate of the count: EXPLAIN's rows of this statement (countParams). */
  plannedCountSql: string;
  params: unknown[];
  countParams: unknown[];
  offset: number;
};

/** The most rows one request returns (Supabase's default "max rows"). */
export const MAX_ROWS = 1000;

/**
 * The most filter terms one read holds (each filter and each term of an `or=(…)`). PostgreSQL has
 * no limit near it, but each term is planned for each part of a relation: far more is no search
 * a person makes, only work the database is made to do.
 */
export const MAX_FILTER_TERMS = 100;

const RESERVED = new Set(["select", "order", "limit", "offset", "or", "and", "apikey", "columns"]);
const COMPARE: Record<string, string> = {
  eq: "=",
  neq: "<>",
  gt: ">",
  gte: ">=",
  lt: "<",
  lte: "<=",
};

const parseError = (what: string, details: string) =>
  new PostgrestError(400, "PGRST100", `"failed to parse ${what}"`, details);

export function planRead(
  relation: ReadRelation,
  query: Record<string, string | string[] | undefined>,
  rangeHeader: string | undefined,
): ReadPlan {
  const { list, where, filtered, params, orderBy, one } = parseQuery(relation, query);
  const { offset, limit } = range(one("offset"), one("limit"), rangeHeader);
  const { counted } = relation;
  const countFrom =
    counted && [...filtered].every((c) => counted.columns.includes(c)) ? counted.sql : relation.sql;
  const countParams = [...params];
  params.push(Math.min(limit ?? MAX_ROWS, MAX_ROWS), offset);
  const [limitParam, offsetParam] = [`$${params.length - 1}`, `$${params.length}`];
  return {
    sql: limitedRead(relation, list, where, orderBy, {
      limit: limitParam,
      offset: offsetParam,
      partLimit: `(${limitParam}::bigint + ${offsetParam}::bigint)`,
    }),
    // The exact count a caller asks for reads every matching row, as PostgREST's does.
    countSql: `${plannedWith(where)}SELECT count(*)::int AS n /* whole table: an exact count */ FROM ${countFrom}${where}`,
    cappedCountSql: `${plannedWith(where)}SELECT count(*)::int AS n FROM (SELECT 1 FROM ${countFrom}${where} LIMIT ${MAX_ROWS + 1}) AS capped`,
    plannedCountSql: `${plannedWith(where)}EXPLAIN (FORMAT JSON) SELECT 1 FROM ${countFrom}${where}`,
    params,
    countParams,
    offset,
  };
}

/**
 * A read that searches text is planned with its values each time: which index is best depends
 * on the text (rare: its trigram index; common: the newest rows by date). Other reads keep the
 * plan the database makes once for every value.
 */
const plannedWith = (where: string) => (/ I?LIKE \$/.test(where) ? `${PLANNED_WITH_VALUES} ` : "");

/**
 * One item of a `select`: a column, or a key of a jsonb column (`details->>phone`), named in the
 * answer by its alias (`Phone:details->>phone`) or else by its column (or key), as PostgREST
 * names them.
 */
export type Selected = { column: string; key?: string; as: string };

/** An identifier as SQL quotes it. */
const quoted = (name: string) => `"${name.replaceAll('"', '""')}"`;

/**
 * SELECT `list` of the rows `where` selects, in `orderBy`, a page of them: of each part of the
 * relation first (at most `partLimit` rows each) when it has parts.
 */
function limitedRead(
  relation: ReadRelation,
  list: Selected[],
  where: string,
  orderBy: string[],
  page: { limit: string; offset?: string; partLimit: string },
): string {
  // Ordered by the relation's columns, not by the answer's (a time is text there).
  const order = orderBy.length
    ? ` ORDER BY ${orderBy.map((o) => `${relation.name}.${o}`).join(", ")}`
    : "";
  const pageSql = ` LIMIT ${page.limit}${page.offset ? ` OFFSET ${page.offset}` : ""}`;
  const answer = list
    .map(({ column: c, key, as }) => {
      const type = relation.columns[c];
      const column = `${relation.name}.${c}`;
      // A key is a parameter-free literal: the parser let only lower-case words through.
      if (key !== undefined) return `${column}->>'${key}' AS ${quoted(as)}`;
      if (type === "timestamptz") return `${restTime(column)} AS ${quoted(as)}`;
      // A day as PostgreSQL writes one (the drivers would read it as a time at local midnight).
      if (type === "date") return `to_char(${column}, 'YYYY-MM-DD') AS ${quoted(as)}`;
      return `${column} AS ${quoted(as)}`;
    })
    .join(", ");
  if (!relation.parts)
    return `${plannedWith(where)}SELECT ${answer} FROM ${relation.sql}${where}${order}${pageSql}`;
  const { column, values } = relation.parts;
  const ordered = orderBy.map((o) => o.split(" ")[0]!);
  const inner = [...new Set([...list.map((i) => i.column), ...ordered])].join(", ");
  // The part's value is the code's own (never a client's), so it is written as a literal: the
  // planner then reads only that part's table.
  const parts = values.map((value) => {
    const part = `${column} = '${value.replaceAll("'", "''")}'`;
    const condition = where ? `${where} AND ${part}` : ` WHERE ${part}`;
    return `(SELECT ${inner} FROM ${relation.sql}${condition}${order} LIMIT ${page.partLimit})`;
  });
  return `${plannedWith(where)}SELECT ${answer} FROM (${parts.join(" UNION ALL ")}) AS ${relation.name}${order}${pageSql}`;
}

/** Where an export's next batch starts: the last row's time (text, to the microsecond) and id. */
export type ExportCursor = { at: string; id: string };

/** The columns of an export's rows that hold their ExportCursor time and id. */
export const EXPORT_AT = "export_cursor_at";
export const EXPORT_ID = "export_cursor_id";

type ExportPlan = {
  columns: string[];
  /** The statement of the next batch: newest first, after the last row of the previous one. */
  batch(after: ExportCursor | undefined): { sql: string; params: unknown[] };
};

/** Rows fetched per statement by an export (its memory is one batch, whatever the total). */
export const EXPORT_BATCH = 1000;

/**
 * Every row the filters select, newest first (`order`, `limit` and ranges do not apply), in
 * batches that continue after the previous batch's last (created_at, id): each batch costs the
 * same however far the export has gone.
 */
export function planExport(
  relation: ReadRelation,
  query: Record<string, string | string[] | undefined>,
): ExportPlan {
  const { list, where, params } = parseQuery(relation, query);
  // The cursor is the row's time to the microsecond, as text: a Date keeps milliseconds only,
  // and rows of one statement share their time.
  // The cursor is the row's time to the microsecond, as text (restTime reads back exactly).
  const columns: Selected[] = [
    ...list,
    { column: "id", as: EXPORT_ID },
    { column: "created_at", as: EXPORT_AT },
  ];
  return {
    columns: list.map((i) => i.as),
    batch(after) {
      const batchParams = [...params];
      let condition = where;
      if (after) {
        batchParams.push(after.at, after.id);
        const [at, id] = [
          `$${batchParams.length - 1}::timestamptz`,
          `$${batchParams.length}::uuid`,
        ];
        // The first half lets each form's created_at index start where the last batch ended.
        const keyset = `created_at <= ${at} AND (created_at, id) < (${at}, ${id})`;
        condition = where ? `${where} AND ${keyset}` : ` WHERE ${keyset}`;
      }
      batchParams.push(EXPORT_BATCH);
      const limit = `$${batchParams.length}`;
      return {
        sql: limitedRead(relation, columns, condition, ["created_at DESC", "id DESC"], {
          limit,
          partLimit: limit,
        }),
        params: batchParams,
      };
    },
  };
}

/** The parts of a read every plan shares: columns, filters (with their parameters) and order. */
function parseQuery(relation: ReadRelation, query: Record<string, string | string[] | undefined>) {
  const params: unknown[] = [];
  const column = (name: string): ColumnType => {
    const type = Object.hasOwn(relation.columns, name) ? relation.columns[name] : undefined;
    if (!type)
      throw new PostgrestError(400, "42703", `column ${relation.name}.${name} does not exist`);
    return type;
  };
  const one = (name: string) => {
    const value = query[name];
    return Array.isArray(value) ? value[0] : value;
  };

  // The filter terms, counted in one place before any is read: each filter, and each term of an
  // or=(…) (one condition per or=(…); repeated ones all hold, as PostgREST reads them).
  const filters = Object.entries(query).flatMap(([name, raw]) =>
    RESERVED.has(name) || raw === undefined
      ? []
      : (Array.isArray(raw) ? raw : [raw]).map((value) => ({ name, value })),
  );
  const ors = (query.or === undefined ? [] : Array.isArray(query.or) ? query.or : [query.or]).map(
    (or) => {
      const inner = /^\((.*)\)$/s.exec(or)?.[1];
      if (inner === undefined) throw parseError(`logic tree (${or})`, "Expected parentheses");
      return { or, parts: splitTopLevel(inner) };
    },
  );
  if (one("and") !== undefined) throw parseError("logic tree", "and=() is not supported here");
  const terms = ors.reduce((n, { parts }) => n + parts.length, filters.length);
  if (terms > MAX_FILTER_TERMS)
    throw parseError(
      "filters",
      `${terms} filter terms; a read holds at most ${MAX_FILTER_TERMS} (each filter, each term of or=())`,
    );
  // The columns the filters name: a count reads the relation's `counted` form when it has them.
  const filtered = new Set<string>();
  const filteredColumn = (name: string) => {
    const type = column(name);
    filtered.add(name);
    return type;
  };
  const conditions = [
    ...filters.map(({ name, value }) => condition(name, value, filteredColumn, params)),
    ...ors.map(({ or, parts }) => {
      const each = parts.map((part) => {
        const match = /^([a-z_]+)\.(.+)$/s.exec(part);
        if (!match) throw parseError(`logic tree (${or})`, `Unexpected "${part}"`);
        return condition(match[1]!, match[2]!, filteredColumn, params);
      });
      return `(${each.join(" OR ")})`;
    }),
  ];

  // A column is named once in the select list and once in the order: the lists are then no longer
  // than the relation's columns, far under PostgreSQL's 1664 (its 54011 would otherwise be a 500).
  const onceEach = (what: string, names: string[]) => {
    const seen = new Set<string>();
    for (const name of names) {
      if (seen.has(name))
        throw parseError(`${what} parameter`, `${name} is ${what}ed more than once`);
      seen.add(name);
    }
  };
  const selected = splitTopLevel(one("select") ?? "*").map((c) => c.trim());
  const list: Selected[] =
    selected.length === 1 && selected[0] === "*"
      ? Object.keys(relation.columns)
          .filter((c) => !relation.filterOnly?.includes(c))
          .map((c) => ({ column: c, as: c }))
      : selected.map((item) => selectedItem(item, column));
  onceEach(
    "select",
    list.map((i) => i.as),
  );

  const orderTerms = (one("order") ?? "").split(",").filter((o) => o !== "");
  onceEach(
    "order",
    orderTerms.map((term) => term.split(".")[0]!),
  );
  const orderBy = orderTerms.map((term) => {
    const [name, ...mods] = term.split(".");
    column(name!);
    const dir = mods.find((m) => m === "asc" || m === "desc") ?? "asc";
    const nulls = mods.find((m) => m === "nullsfirst" || m === "nullslast");
    if (mods.some((m) => !["asc", "desc", "nullsfirst", "nullslast"].includes(m)))
      throw parseError(`order (${term})`, "Expected asc, desc, nullsfirst or nullslast");
    return `${name} ${dir.toUpperCase()}${nulls ? ` NULLS ${nulls === "nullsfirst" ? "FIRST" : "LAST"}` : ""}`;
  });

  const where = conditions.length ? ` WHERE ${conditions.join(" AND ")}` : "";
  return { list, where, filtered, params, orderBy, one };
}

/**
 * One item of `select`: `column`, `column->>key` (a key of a jsonb column), either after an
 * alias and a colon (`alias:` or `"An alias":`), as PostgREST reads them.
 */
function selectedItem(item: string, column: (name: string) => ColumnType): Selected {
  const match =
    /^(?:(?:"((?:[^"]|"")+)"|([A-Za-z_][A-Za-z0-9_]*)):)?([a-z_]+)(?:->>([a-z_]+))?$/.exec(item);
  if (!match) throw parseError("select parameter", `Unexpected "${item}"`);
  const [, quotedAlias, alias, name, key] = match;
  const type = column(name!);
  if (key !== undefined && type !== "jsonb")
    throw new PostgrestError(404, "42883", `operator does not exist: ${type} ->> unknown`);
  return {
    column: name!,
    ...(key !== undefined && { key }),
    as: quotedAlias?.replaceAll('""', '"') ?? alias ?? key ?? name!,
  };
}

/**
 * A boolean as PostgreSQL's input reads it (any case, around spaces): a prefix of true, false,
 * yes or no, on, off, 1 or 0; anything else is its 22P02.
 */
function readBoolean(value: string): boolean {
  const v = value.trim().toLowerCase();
  const prefixOf = (word: string, min = 1) => v.length >= min && word.startsWith(v);
  if (prefixOf("true") || prefixOf("yes") || prefixOf("on", 2) || v === "1") return true;
  if (prefixOf("false") || prefixOf("no") || prefixOf("off", 2) || v === "0") return false;
  throw new PostgrestError(400, "22P02", `invalid input syntax for type boolean: "${value}"`);
}

/** One filter, `op.value` or `not.op.value`, on a known column. */
function condition(
  name: string,
  filter: string,
  column: (name: string) => ColumnType,
  params: unknown[],
): string {
  const type = column(name);
  const negated = filter.startsWith("not.");
  const rest = negated ? filter.slice(4) : filter;
  const dot = rest.indexOf(".");
  if (dot < 0) throw parseError(`filter (${rest})`, 'unexpected end of input expecting "."');
  const op = rest.slice(0, dot);
  const value = rest.slice(dot + 1);
  const param = (v: unknown) => {
    params.push(v);
    return `$${params.length}`;
  };
  let sql: string;
  // A boolean is read here, as PostgreSQL reads one: the embedded driver refuses to send an
  // unreadable boolean with an error of its own instead of the database's 22P02.
  const typed = (v: string) => (type === "boolean" ? readBoolean(v) : v);
  if (Object.hasOwn(COMPARE, op) && type !== "jsonb") {
    sql = `${name} ${COMPARE[op]} ${param(typed(value))}::${type}`;
  } else if (op === "like" || op === "ilike") {
    if (type !== "text")
      throw new PostgrestError(
        404,
        "42883",
        `operator does not exist: ${type} ${op === "like" ? "~~" : "~~*"} unknown`,
      );
    sql = `${name} ${op.toUpperCase()} ${param(value.replaceAll("*", "%"))}`;
  } else if (op === "in" && type !== "jsonb") {
    const inner = /^\((.*)\)$/s.exec(value)?.[1];
    if (inner === undefined)
      throw parseError(`filter (${filter})`, "Expected a list in parentheses");
    const items = inner === "" ? [] : splitTopLevel(inner).map(unquote).map(typed);
    sql = `${name} = ANY(${param(items)}::${type}[])`;
  } else if (op === "is") {
    const known = { null: "NULL", true: "TRUE", false: "FALSE", unknown: "UNKNOWN" }[
      value.toLowerCase()
    ];
    if (!known) throw parseError(`filter (${filter})`, "Expected null, true, false or unknown");
    sql = `${name} IS ${known}`;
  } else {
    throw parseError(`filter (${name}=${filter})`, `Unknown operator "${op}"`);
  }
  return negated ? `NOT (${sql})` : sql;
}

/** Splits on commas outside double quotes and parentheses. */
function splitTopLevel(text: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let quoted = false;
  let current = "";
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (c === "\\" && quoted && i + 1 < text.length) {
      current += c + text[++i];
      continue;
    }
    if (c === '"') quoted = !quoted;
    else if (!quoted && c === "(") depth += 1;
    else if (!quoted && c === ")") depth -= 1;
    if (c === "," && !quoted && depth === 0) {
      parts.push(current);
      current = "";
    } else current += c;
  }
  parts.push(current);
  return parts;
}

function unquote(item: string): string {
  const match = /^"((?:[^"\\]|\\.)*)"$/s.exec(item);
  return match ? match[1]!.replace(/\\(.)/g, "$1") : item;
}

/** The rows asked for: `offset`/`limit`, narrowed by a `Range: first-last` header. */
function range(
  offsetParam: string | undefined,
  limitParam: string | undefined,
  header: string | undefined,
): { offset: number; limit: number | undefined } {
  const count = (name: string, v: string | undefined) => {
    if (v === undefined) return undefined;
    if (!/^\d{1,9}$/.test(v)) throw parseError(name, `"${v}" is not a non-negative integer`);
    return Number(v);
  };
  let offset = count("offset", offsetParam) ?? 0;
  let limit = count("limit", limitParam);
  const asked = header === undefined ? null : /^(\d{1,9})-(\d{0,9})$/.exec(header.trim());
  if (asked) {
    const first = Number(asked[1]);
    const last = asked[2] === "" ? undefined : Number(asked[2]);
    if (last !== undefined && last < first)
      throw new PostgrestError(416, "PGRST103", "Requested range not satisfiable");
    offset = first + offset;
    const span = last === undefined ? undefined : last - first + 1;
    limit = limit === undefined ? span : span === undefined ? limit : Math.min(limit, span);
  }
  return { offset, limit };
}

/** PostgREST's Content-Range and status for `rows` rows from `offset` of `total` (when counted). */
export function rangeAnswer(
  offset: number,
  rows: number,
  total: number | undefined,
): { status: number; contentRange: string } {
  const totalText = total === undefined ? "*" : String(total);
  const contentRange =
    rows === 0 ? `*/${totalText}` : `${offset}-${offset + rows - 1}/${totalText}`;
  if (total === undefined) return { status: 200, contentRange };
  if (offset > total && total > 0) return { status: 416, contentRange };
  return { status: rows < total ? 206 : 200, contentRange };
}
