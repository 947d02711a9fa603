// How `npm run backup` gets a copy from the server that has the embedded database open (only it
// may touch the files while it runs): a Unix socket in DATA_DIR/control, a folder only the
// server's own user can enter (mode 0700), so the copy, which holds every account and the
// signing secret, is given to that user (and root) alone, and never through the public listener.
// The client writes "backup\n"; the server answers with the backup file's bytes, or with one
// line "error: …", and closes. Backups asked for at the same time are made one after another.
import fs from "node:fs/promises";
import net from "node:net";
import path from "node:path";
import { BackupRefused } from "./backup-file.ts";

const CONTROL_DIR = "control";
const SOCKET = "backup.sock";
const REQUEST = "backup";
/** How long a connection may take to send its request before it is closed. */
const REQUEST_TIMEOUT_MS = 10_000;
/** The longest path a Unix socket takes on Linux (108 bytes) and macOS (104), less the NUL. */
const SOCKET_PATH_MAX = 103;

/**
 * The socket's path for `dataDir`, relative to the working folder when the absolute one is too
 * long for a socket; undefined where there is none (Windows, or a path too long either way).
 */
export function backupSocketPath(dataDir: string): string | undefined {
  if (process.platform === "win32") return undefined;
  const full = path.join(dataDir, CONTROL_DIR, SOCKET);
  if (Buffer.byteLength(full) <= SOCKET_PATH_MAX) return full;
  const relative = path.relative(process.cwd(), full);
  return Buffer.byteLength(relative) <= SOCKET_PATH_MAX ? relative : undefined;
}

export type BackupChannel = { close(): Promise<void> };

/** Listens for backup requests; throws (saying why) when the socket cannot be made. */
export async function serveBackups(
  dataDir: string,
  makeBackup: () => Promise<Buffer>,
): Promise<BackupChannel> {
  const socketPath = backupSocketPath(dataDir);
  if (!socketPath)
    throw new Error(
      process.platform === "win32"
        ? "a running server makes no backups on Windows"
        : `the path of its socket in ${dataDir} is too long for a Unix socket`,
    );
  const control = path.join(dataDir, CONTROL_DIR);
  await fs.mkdir(control, { mode: 0o700, recursive: true });
  await fs.chmod(control, 0o700);
  // A socket file left by a server that was killed: this process holds the data folder's lock,
  // so no other server is listening on it.
  await fs.rm(socketPath, { force: true });

  let queue: Promise<unknown> = Promise.resolve();
  /** Connections that have not sent their request yet: closed after a while, and at close. */
  const waiting = new Set<net.Socket>();
  const server = net.createServer((socket) => {
    socket.on("error", () => {}); // the client went away: nothing to answer
    waiting.add(socket);
    socket.on("close", () => waiting.delete(socket));
    socket.setTimeout(REQUEST_TIMEOUT_MS, () => socket.destroy());
    let request = "";
    socket.setEncoding("latin1");
    socket.on("data", (chunk: string) => {
      request += chunk;
      const end = request.indexOf("\n");
      if (end < 0 && request.length <= REQUEST.length) return;
      socket.removeAllListeners("data");
      waiting.delete(socket);
      socket.setTimeout(0);
      if (request.slice(0, end) !== REQUEST) {
        socket.end(`error: unknown request (this socket answers "${REQUEST}")\n`);
        return;
      }
      const made = queue.then(makeBackup);
      queue = made.catch(() => {});
      made.then(
        (bytes) => socket.end(bytes),
        (err: unknown) =>
          socket.end(
            `error: ${err instanceof Error ? err.message : String(err)}\n`.replace(/\n(?=.)/g, " "),
          ),
      );
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(socketPath, () => {
      server.off("error", reject);
      resolve();
    });
  });
  return {
    // Stops listening, drops connections that asked nothing, lets a backup under way finish and
    // be sent, then resolves once every connection has ended.
    async close() {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      for (const socket of waiting) socket.destroy();
      await queue;
      await closed;
      await fs.rm(socketPath, { force: true });
    },
  };
}

/** Asks the server holding `dataDir` for a backup: the file's bytes, as it sent them. */
export async function requestBackup(dataDir: string): Promise<Buffer> {
  const socketPath = backupSocketPath(dataDir);
  if (!socketPath)
    throw new BackupRefused(
      process.platform === "win32"
        ? `a server is running on ${dataDir}, and on Windows a running server makes no backups: stop it, then run the backup again`
        : `a server is running on ${dataDir}, whose path is too long for its backup socket: run the backup from a folder nearer to it, or stop the server first`,
    );
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    const socket = net.connect(socketPath, () => socket.write(`${REQUEST}\n`));
    socket.on("data", (chunk: Buffer) => chunks.push(chunk));
    socket.on("error", (err: NodeJS.ErrnoException) =>
      reject(
        new BackupRefused(
          err.code === "EACCES"
            ? `a server is running on ${dataDir}, and this user may not use its backup socket (${socketPath}): run the backup as the user that runs the server`
            : err.code === "ENOENT" || err.code === "ECONNREFUSED"
              ? `${dataDir} is in use (by a server, or another backup or restore under way) and answers on no backup socket (${socketPath}): a server older than this command, or one that could not make its socket, says so in its log; restart it, or stop it and run the backup again`
              : `the running server's backup socket (${socketPath}) failed: ${err.message}`,
        ),
      ),
    );
    socket.on("end", () => {
      const answer = Buffer.concat(chunks);
      if (answer.subarray(0, 7).toString("latin1") === "error: ")
        reject(
          new BackupRefused(
            `the running server could not make a backup: ${answer.subarray(7).toString("utf8").trim()}`,
          ),
        );
      else resolve(answer);
    });
  });
}
