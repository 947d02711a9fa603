// The server's one query-string parser. A repeated parameter keeps its first value everywhere, as
// GoTrue reads parameters (Go's url.Values.Get), so `?scope=local&scope=global` is a local logout
// and no handler ever sees an array. The names given more than once are kept on the side for the
// scopes that refuse a repeat instead (/rest/v1, where a repeated `columns` or `select` is ambiguous)
// or read every value (/rest/v1's filters: `created_at=gte.…&created_at=lt.…` are both conditions).

const REPEATED = Symbol("repeated query parameters");

export type Query = Record<string, string>;

export function parseQueryString(search: string): Query {
  // No prototype: a parameter named __proto__ or constructor is just a parameter.
  const query = Object.create(null) as Query;
  let repeated: Map<string, string[]> | undefined;
  for (const [name, value] of new URLSearchParams(search)) {
    if (!(name in query)) query[name] = value;
    else {
      repeated ??= new Map();
      const values = repeated.get(name);
      if (values) values.push(value);
      else repeated.set(name, [query[name]!, value]);
    }
  }
  if (repeated) Object.defineProperty(query, REPEATED, { value: repeated });
  return query;
}

type Repeats = { [REPEATED]?: Map<string, string[]> } | undefined;

/** The parameters the request gave more than once. */
export function repeatedParams(query: unknown): readonly string[] {
  return [...((query as Repeats)?.[REPEATED]?.keys() ?? [])];
}

/** The query with every value of a repeated parameter, in the order given. */
export function everyValue(query: Query): Record<string, string | string[]> {
  const repeated = (query as Repeats)?.[REPEATED];
  if (!repeated) return query;
  const all: Record<string, string | string[]> = Object.create(null);
  for (const name of Object.keys(query)) all[name] = repeated.get(name) ?? query[name]!;
  return all;
}
