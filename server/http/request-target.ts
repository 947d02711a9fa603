// A request target (`/path?query`) split at its first "?": the path as sent (not decoded, so a
// malformed escape is still a path), and the query after the "?".

/** The path and the query of a request target; the query is undefined without a "?". */
export function splitTarget(url: string): { path: string; query: string | undefined } {
  const q = url.indexOf("?");
  return q < 0
    ? { path: url, query: undefined }
    : { path: url.slice(0, q), query: url.slice(q + 1) };
}

/** The path of a request without its query, as sent. */
export const pathOf = (request: { url: string }): string => splitTarget(request.url).path;
