// The ceiling of node:http on this machine, for `npm run bench`, in its own process (like the
// server under test): it asks the running server (the origin given) once for each path, with the
// Accept-Encoding the benchmark sends, keeps the answers' bytes, type, encoding and ETag in memory,
// and serves them with nothing else per request but the If-None-Match comparison (304).
//   node bench/bare-server.ts ORIGIN ACCEPT_ENCODING PATH…
import http from "node:http";

const [origin, acceptEncoding, ...paths] = process.argv.slice(2);
if (!origin || acceptEncoding === undefined || paths.length === 0) {
  console.error("usage: node bench/bare-server.ts ORIGIN ACCEPT_ENCODING PATH…");
  process.exit(2);
}

type Held = { body: Buffer; headers: Record<string, string | number>; etag: string };
const held = new Map<string, Held>();
/** One answer of the origin as it was sent (node:http does not decode a content coding). */
function get(path: string): Promise<http.IncomingMessage & { body: Buffer }> {
  return new Promise((resolve, reject) => {
    http
      .get(origin + path, { headers: { "accept-encoding": acceptEncoding } }, (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        res.on("end", () => resolve(Object.assign(res, { body: Buffer.concat(chunks) })));
      })
      .on("error", reject);
  });
}

for (const path of paths) {
  const res = await get(path);
  if (res.statusCode !== 200) throw new Error(`${path}: ${res.statusCode}`);
  const etag = String(res.headers.etag ?? "");
  const headers: Record<string, string | number> = {
    "content-type": res.headers["content-type"] ?? "application/octet-stream",
    "content-length": res.body.length,
    etag,
  };
  const encoding = res.headers["content-encoding"];
  if (encoding) headers["content-encoding"] = encoding;
  held.set(path, { body: res.body, headers, etag });
}

const server = http.createServer((req, res) => {
  const file = held.get(req.url ?? "");
  if (!file) return res.writeHead(404).end();
  if (req.headers["if-none-match"] === file.etag)
    return res.writeHead(304, { etag: file.etag }).end();
  res.writeHead(200, file.headers).end(file.body);
});
server.listen(0, "127.0.0.1", () => {
  console.log(`listening ${(server.address() as { port: number }).port}`);
});
