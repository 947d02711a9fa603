// The server's one query-string parser. A repeated parameter keeps its first value everywhere, as
// GoTrue reads parameters (Go's url.Values.Get), so `?scope=local&scope=global` is a local logout
// and no handler ever sees an array. The names given more than once are kept on the side for the
// scopes that refuse a repeat instead (/rest/v1, where a repeated `columns` or `select` is ambiguous).

const REPEATED = Symbol("repeated query parameters");

export type Query = Record<string, string>;

export function parseQueryString(search: string): Query {
  // No prototype: a parameter named __proto__ or constructor is just a parameter.
  const query = Object.create(null) as Query;
  let repeated: string[] | undefined;
  for (const [name, value] of new URLSearchParams(search)) {
    if (name in query) (repeated ??= []).push(name);
    else query[name] = value;
  }
  if (repeated) Object.defineProperty(query, REPEATED, { value: repeated });
  return query;
}

/** The parameters the request gave more than once. */
export function repeatedParams(query: unknown): readonly string[] {
  return (query as { [REPEATED]?: string[] } | undefined)?.[REPEATED] ?? [];
}
