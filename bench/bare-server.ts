// The ceiling of node:http on this machine, for `npm run bench`, in its own process (like the
// server under test): it asks the running server (the origin given) once for each path, with the
// Accept-Encoding the benchmark sends, keeps the answers in memory and serves them with nothing
// else per request but the If-None-Match comparison (304).
//   node bench/bare-server.ts same|few ORIGIN ACCEPT_ENCODING PATH…
// `same`: the origin's answer as it was sent, every header line of it (its security headers, its
// CSP, its request id as bytes of the same length), so the two servers send the same bytes and
// the ratio between them is the cost of the origin's own work. `few`: the body with only four
// header lines (type, length, coding, ETag), the ceiling the benchmark used first.
import http from "node:http";

const [mode, origin, acceptEncoding, ...paths] = process.argv.slice(2);
if ((mode !== "same" && mode !== "few") || !origin || acceptEncoding === undefined || !paths[0]) {
  console.error("usage: node bench/bare-server.ts same|few ORIGIN ACCEPT_ENCODING PATH…");
  process.exit(2);
}

/** Header lines Node writes itself on every answer (Date, Connection, Keep-Alive). */
const NODE_OWN = new Set(["date", "connection", "keep-alive"]);

type Held = { body: Buffer; headers: string[]; notModified: string[]; etag: string };
const held = new Map<string, Held>();

/** One answer of the origin as it was sent (node:http does not decode a content coding). */
function get(
  path: string,
  headers: Record<string, string>,
): Promise<http.IncomingMessage & { body: Buffer }> {
  return new Promise((resolve, reject) => {
    http
      .get(origin + path, { headers: { "accept-encoding": acceptEncoding, ...headers } }, (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        res.on("end", () => resolve(Object.assign(res, { body: Buffer.concat(chunks) })));
      })
      .on("error", reject);
  });
}

/** An answer's header lines as a flat name-value list, without the ones Node writes itself. */
function linesOf(res: http.IncomingMessage): string[] {
  const lines: string[] = [];
  for (let i = 0; i < res.rawHeaders.length; i += 2)
    if (!NODE_OWN.has(res.rawHeaders[i]!.toLowerCase()))
      lines.push(res.rawHeaders[i]!, res.rawHeaders[i + 1]!);
  return lines;
}

for (const path of paths) {
  const res = await get(path, {});
  if (res.statusCode !== 200) throw new Error(`${path}: ${res.statusCode}`);
  const etag = String(res.headers.etag ?? "");
  const notModified = await get(path, { "if-none-match": etag });
  if (notModified.statusCode !== 304)
    throw new Error(`${path}: ${notModified.statusCode}, not 304`);
  const encoding = res.headers["content-encoding"];
  const few = [
    "content-type",
    res.headers["content-type"] ?? "application/octet-stream",
    "content-length",
    String(res.body.length),
    "etag",
    etag,
    ...(encoding ? ["content-encoding", encoding] : []),
  ];
  held.set(path, {
    body: res.body,
    headers: mode === "same" ? linesOf(res) : few,
    notModified: mode === "same" ? linesOf(notModified) : ["etag", etag],
    etag,
  });
}

const server = http.createServer((req, res) => {
  const file = held.get(req.url ?? "");
  if (!file) return res.writeHead(404).end();
  if (req.headers["if-none-match"] === file.etag) return res.writeHead(304, file.notModified).end();
  res.writeHead(200, file.headers).end(file.body);
});
server.listen(0, "127.0.0.1", () => {
  console.log(`listening ${(server.address() as { port: number }).port}`);
});
