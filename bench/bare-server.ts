// Baselines for `npm run bench`, each in its own process (like the server under test):
//   file   → the simplest correct file server: reads the prerendered file per request;
//   memory → the same pages held in memory: the ceiling of node:http on this machine.
import fs from "node:fs";
import http from "node:http";
import path from "node:path";

const [mode = "file", siteDir = "build/client"] = process.argv.slice(2);
const SITE = path.resolve(siteDir);
const fileFor = (pathname: string) =>
  path.join(SITE, pathname === "/" ? "index.html" : `${pathname}/index.html`);
const cache = new Map<string, Buffer>();

const server = http.createServer((req, res) => {
  const pathname = decodeURIComponent(new URL(req.url ?? "/", "http://x").pathname);
  const file = fileFor(pathname);
  if (!file.startsWith(SITE)) return res.writeHead(400).end();
  const send = (body: Buffer) =>
    res
      .writeHead(200, { "content-type": "text/html; charset=utf-8", "content-length": body.length })
      .end(body);
  if (mode === "memory") {
    let body = cache.get(file);
    if (!body) {
      if (!fs.existsSync(file)) return res.writeHead(404).end();
      body = fs.readFileSync(file);
      cache.set(file, body);
    }
    return send(body);
  }
  fs.readFile(file, (err, body) => (err ? res.writeHead(404).end() : send(body)));
});
server.listen(0, "127.0.0.1", () => {
  console.log(`listening ${(server.address() as { port: number }).port}`);
});
