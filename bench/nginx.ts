// nginx as a reference for `npm run bench`, where it is installed: one worker, gzip_static, an
// access log (buffered), serving the very bytes our server sends (asked of it once per path,
// identity and in the coding the benchmark asks for) from a folder of its own.
import { spawn } from "node:child_process";
import fs from "node:fs";
import http from "node:http";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { freePort } from "../tests/support/ports.ts";
import { onCore } from "./lib.ts";

const NGINX = ["/usr/sbin/nginx", "/usr/local/sbin/nginx", "/usr/bin/nginx"].find((p) =>
  fs.existsSync(p),
);

function getBytes(url: string, headers: Record<string, string>): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    http
      .get(url, { headers }, (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        res.on("end", () =>
          res.statusCode === 200
            ? resolve(Buffer.concat(chunks))
            : reject(new Error(`${url}: ${res.statusCode}`)),
        );
      })
      .on("error", reject);
  });
}

const connects = (port: number) =>
  new Promise<boolean>((resolve) => {
    const socket = net.connect(port, "127.0.0.1");
    socket.on("connect", () => resolve(socket.end() && true));
    socket.on("error", () => resolve(false));
  });

export async function startNginx(
  origin: string,
  acceptEncoding: string,
  paths: string[],
): Promise<{ url: string; stop(): Promise<void>; kill(): void } | undefined> {
  if (!NGINX) return undefined;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "revwise-bench-nginx-"));
  const root = path.join(dir, "root");
  fs.chmodSync(dir, 0o755); // nginx's worker runs as another user when started by root
  for (const urlPath of paths) {
    // A page (no extension) is a folder's index.html, as in the build.
    const file = path.join(root, path.extname(urlPath) ? urlPath : `${urlPath}/index.html`);
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, await getBytes(origin + urlPath, { "accept-encoding": "identity" }));
    const coded = await getBytes(origin + urlPath, { "accept-encoding": acceptEncoding });
    if (acceptEncoding === "gzip" && coded[0] === 0x1f && coded[1] === 0x8b)
      fs.writeFileSync(`${file}.gz`, coded);
  }
  const port = await freePort();
  const conf = path.join(dir, "nginx.conf");
  const temp = (name: string) => `${name}_temp_path ${path.join(dir, name)};`;
  fs.writeFileSync(
    conf,
    `worker_processes 1;
pid ${path.join(dir, "nginx.pid")};
events { worker_connections 1024; }
http {
  types { text/html html; text/javascript js; text/css css; image/png png; image/svg+xml svg; }
  default_type application/octet-stream;
  access_log ${path.join(dir, "access.log")} combined buffer=64k flush=1s;
  ${["client_body", "proxy", "fastcgi", "uwsgi", "scgi"].map(temp).join("\n  ")}
  sendfile on;
  tcp_nopush on;
  gzip_static on;
  server {
    listen 127.0.0.1:${port};
    root ${root};
    location / { try_files $uri $uri/index.html =404; }
  }
}
`,
  );
  const child = spawn(
    ...onCore("server", NGINX, [
      "-p",
      dir,
      "-e",
      path.join(dir, "error.log"),
      "-c",
      conf,
      "-g",
      "daemon off;",
    ]),
    { stdio: "inherit" },
  );
  const exited = new Promise<void>((resolve) => child.on("exit", () => resolve()));
  for (let i = 0; i < 100 && !(await connects(port)); i++)
    await new Promise((r) => setTimeout(r, 50));
  return {
    url: `http://127.0.0.1:${port}`,
    kill: () => child.kill("SIGQUIT"),
    stop: async () => {
      child.kill("SIGQUIT");
      await exited;
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
