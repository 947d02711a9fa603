// The answers each connection owes, in the order its requests arrived. A client may send several
// requests before reading an answer (pipelining); Node queues their answers so each goes out after
// the one before. An answer written on the socket itself (a request Node could not parse or wait
// for, a CONNECT) waits its turn here the same way: an answer once started belongs to its
// request, and a request whose change was applied is never answered by someone else's refusal.
import type { IncomingMessage, Server, ServerResponse } from "node:http";
import type { Socket } from "node:net";

/** The answers not yet sent, per connection. */
const owed = new WeakMap<Socket, Set<ServerResponse>>();
/** The last request whose head each connection sent, and its answer. */
const latest = new WeakMap<Socket, { request: IncomingMessage; response: ServerResponse }>();

/**
 * Follows the requests `server` reads and their answers (Node tells of each as its head is read).
 * An answer already ended and handed to its connection when its request is told of (a site file
 * answered before the framework, a refusal at once) is not counted as owed: its bytes are in the
 * socket's own buffer, ahead of anything written later, and afterOwedAnswers waits for that buffer
 * to empty.
 */
export function followAnswers(server: Server): void {
  server.on("request", (request: IncomingMessage, response: ServerResponse) => {
    const socket = request.socket;
    latest.set(socket, { request, response });
    if (response.writableEnded && response.socket) return;
    let answers = owed.get(socket);
    if (!answers) owed.set(socket, (answers = new Set()));
    const pending = answers;
    pending.add(response);
    response.once("close", () => pending.delete(response));
  });
}

/** The request the connection is receiving (its head read, its body not all), and its answer. */
export function requestInProgress(
  socket: Socket,
): { request: IncomingMessage; response: ServerResponse } | undefined {
  const last = latest.get(socket);
  return last && !last.request.complete ? last : undefined;
}

/**
 * Calls `next` once every answer the connection owes has been sent (at once when none is owed),
 * but for `except`'s, and the socket has handed all it was given to the system; not at all if the
 * connection closes first.
 */
export function afterOwedAnswers(socket: Socket, next: () => void, except?: ServerResponse): void {
  const waiting = [...(owed.get(socket) ?? [])].filter((answer) => answer !== except);
  // An empty write's callback runs once every write before it is done (writes complete in order).
  const flushed = () => {
    if (socket.writableLength === 0 || !socket.writable) return next();
    socket.write("", () => {
      if (!socket.destroyed) next();
    });
  };
  if (waiting.length === 0) return flushed();
  let left = waiting.length;
  const sent = () => {
    if (--left > 0) return;
    socket.off("close", dropped);
    if (!socket.destroyed) flushed();
  };
  const dropped = () => {
    for (const answer of waiting) answer.off("close", sent);
  };
  socket.once("close", dropped);
  for (const answer of waiting) answer.once("close", sent);
}
