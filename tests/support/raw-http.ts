// HTTP/1.1 over a raw socket, for the tests that control the bytes and their timing: a body
// trickled in, a request left in flight across a signal, a keep-alive connection left open.
import http from "node:http";
import net from "node:net";
import { waitUntil } from "./poll.ts";

export type RawConnection = {
  socket: net.Socket;
  /** Everything received so far. */
  received(): string;
  /**
   * Resolves with the first complete final response's head (status line and headers) and body;
   * an interim one (`100 Continue`) before it is skipped.
   */
  response(): Promise<{ status: number; head: string; body: string }>;
  /** Resolves when the server closed the connection. */
  closed: Promise<void>;
};

export function rawConnect(port: number, host = "127.0.0.1"): Promise<RawConnection> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, host);
    let data = "";
    const waiters: (() => void)[] = [];
    socket.setEncoding("utf8");
    socket.on("data", (chunk: string) => {
      data += chunk;
      for (const w of waiters.splice(0)) w();
    });
    socket.on("error", () => {});
    const closed = new Promise<void>((done) => socket.on("close", () => done()));
    const response = async () => {
      for (;;) {
        const final = data.replace(/^(HTTP\/1\.1 1\d\d [^\r]*\r\n(?:[^\r]+\r\n)*\r\n)+/, "");
        const split = final.indexOf("\r\n\r\n");
        if (split >= 0) {
          const head = final.slice(0, split);
          const length = Number(/\r\ncontent-length: *(\d+)/i.exec(head)?.[1] ?? 0);
          const body = final.slice(split + 4);
          if (Buffer.byteLength(body) >= length)
            return { status: Number(head.split(" ")[1]), head, body };
        }
        if (socket.destroyed) throw new Error(`connection closed after: ${JSON.stringify(data)}`);
        await Promise.race([new Promise<void>((r) => waiters.push(r)), closed]);
      }
    };
    socket.once("connect", () => resolve({ socket, received: () => data, response, closed }));
    socket.once("error", reject);
  });
}

/** Resolves when `logs` holds a line matching `pattern` (polls the array the server fills). */
export async function waitForLog(logs: string[], pattern: RegExp, timeoutMs = 10_000) {
  await waitUntil(
    async () => logs.some((l) => pattern.test(l)),
    timeoutMs,
    () => `no log line matched ${pattern}:\n${logs.join("\n")}`,
  );
}

/**
 * One request on a new connection from a chosen local address (127.x.y.z on loopback), so a test
 * can be several clients with addresses of their own behind a load balancer.
 */
export function httpRequest(
  url: string,
  opts: { method?: string; headers?: Record<string, string>; body?: string; from?: string } = {},
): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      url,
      {
        method: opts.method ?? "GET",
        headers: opts.headers,
        localAddress: opts.from,
        agent: false,
      },
      (res) => {
        let body = "";
        res.setEncoding("utf8");
        res.on("data", (c: string) => (body += c));
        res.on("end", () => resolve({ status: res.statusCode!, headers: res.headers, body }));
        res.on("error", reject);
      },
    );
    req.on("error", reject);
    req.end(opts.body);
  });
}
