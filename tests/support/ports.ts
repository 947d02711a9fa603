import fs from "node:fs";
import net from "node:net";

/**
 * The ports the kernel hands out by itself (`listen(0)`, and the local end of every outgoing
 * connection): a port taken from this range and released until a server listens on it can be
 * given meanwhile to any connection of the machine (a browser's, a database client's), and the
 * server then fails with EADDRINUSE. Ports below it are only ever taken by asking for them.
 */
function kernelRangeStart(): number {
  try {
    const low = Number(
      fs.readFileSync("/proc/sys/net/ipv4/ip_local_port_range", "utf8").trim().split(/\s+/)[0],
    );
    if (low > 1024) return low;
  } catch {
    // Not Linux: the IANA dynamic range, as other systems use it.
  }
  return 49152;
}

const KERNEL_LOW = kernelRangeStart();
/** Where the tests pick their ports: below the kernel's own range, above the well-known ones. */
const LOW = Math.max(1025, KERNEL_LOW - 20_000);

/** A TCP port on 127.0.0.1 that was free a moment ago and that the kernel gives nobody unasked. */
export async function freePort(): Promise<number> {
  for (let attempt = 0; ; attempt++) {
    const port = LOW + Math.floor(Math.random() * (KERNEL_LOW - LOW));
    try {
      await probe(port);
      return port;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== "EADDRINUSE" || attempt >= 100) throw err;
    }
  }
}

function probe(port: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.once("error", reject);
    srv.listen(port, "127.0.0.1", () => srv.close(() => resolve()));
  });
}
