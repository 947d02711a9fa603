// A real SMTP server on loopback (smtp-server) that keeps every message it accepts, parsed.
// It can play a slow peer (each message answered after a delay), a peer that rejects some
// recipients, and a stopped peer (stop() drops every connection and refuses new ones until
// start() listens again on the same port). It counts the connections it was opened.
import { simpleParser, type ParsedMail } from "mailparser";
import type { AddressInfo, Socket } from "node:net";
import { SMTPServer } from "smtp-server";
import { freePort } from "./ports.ts";

export type SmtpReply = { code: number; message: string };

export type SmtpBehaviour = {
  /** How long the server takes to answer each message once its data has arrived. */
  delayMs?: number;
  /** The reply to RCPT TO for an address; undefined accepts it. */
  rejectRecipient?: (address: string) => SmtpReply | undefined;
};

export type TestSmtp = {
  readonly url: string;
  /** Messages the server accepted (answered 250), in order. */
  readonly messages: ParsedMail[];
  /** Connections opened to the server since it started the first time. */
  readonly connections: number;
  /** Changes how the server behaves from the next message on. */
  behave(behaviour: SmtpBehaviour): void;
  /** Resolves with the first message (already received or arriving) that matches. */
  waitFor(match: (m: ParsedMail) => boolean, timeoutMs?: number): Promise<ParsedMail>;
  /** Resolves once the server accepted `count` messages matching `match`. */
  waitForCount(
    count: number,
    match?: (m: ParsedMail) => boolean,
    timeoutMs?: number,
  ): Promise<void>;
  /**
   * Resolves when a matching message's data has arrived and its answer is being delayed (a
   * message of an earlier test may still be waiting for its own).
   */
  waitForPendingAnswer(match?: (m: ParsedMail) => boolean, timeoutMs?: number): Promise<void>;
  /** The same for `count` matching messages at once (each sender's lanes mid-message). */
  waitForPendingAnswers(
    count: number,
    match?: (m: ParsedMail) => boolean,
    timeoutMs?: number,
  ): Promise<void>;
  /** Resolves once `count` matching messages were dropped: their sender hung up before the answer. */
  waitForAbandoned(
    count: number,
    match?: (m: ParsedMail) => boolean,
    timeoutMs?: number,
  ): Promise<void>;
  /** Stops like a crashed peer: every open connection is dropped, new ones are refused. */
  stop(): Promise<void>;
  start(): Promise<void>;
};

const smtpError = (reply: SmtpReply) =>
  Object.assign(new Error(reply.message), { responseCode: reply.code });

/** Email budgets no test reaches (per client and site-wide), for suites that send many emails. */
export const UNLIMITED_EMAILS = {
  RATE_LIMIT_EMAIL_SENT: "1000",
  RATE_LIMIT_LEAD_EMAIL_SENT: "1000",
  RATE_LIMIT_EMAIL_IP: "1000",
};

/**
 * A browser suite's options for a loopback SMTP server started with the suite's server (handed to
 * `keep` for the tests to read) and email budgets no test reaches, beside `env`; stopped after.
 */
export function withTestSmtp(keep: (smtp: TestSmtp) => void, env: Record<string, string> = {}) {
  let started: TestSmtp | undefined;
  return {
    env: async () => {
      started = await startSmtp();
      keep(started);
      return { SMTP_URL: started.url, ...UNLIMITED_EMAILS, ...env };
    },
    teardown: async () => started?.stop(),
  };
}

export async function startSmtp(initial: SmtpBehaviour = {}): Promise<TestSmtp> {
  const messages: ParsedMail[] = [];
  const waiters = new Set<() => void>();
  const sockets = new Set<Socket>();
  const closedSessions = new Set<string>();
  let behaviour = initial;
  let connections = 0;
  const pendingAnswers = new Set<ParsedMail>();
  const abandoned: ParsedMail[] = [];
  // Outside the kernel's own range: no connection of the machine takes it while the peer is stopped.
  let port = await freePort();
  let server: SMTPServer | undefined;
  const wake = () => {
    for (const waiter of waiters) waiter();
  };

  const listen = () =>
    new Promise<void>((resolve, reject) => {
      server = new SMTPServer({
        authOptional: true,
        disabledCommands: ["STARTTLS", "AUTH"],
        disableReverseLookup: true,
        logger: false,
        onConnect(_session, callback) {
          connections += 1;
          callback();
        },
        onClose(session) {
          closedSessions.add(session.id);
        },
        onRcptTo(address, _session, callback) {
          const reply = behaviour.rejectRecipient?.(address.address);
          callback(reply ? smtpError(reply) : undefined);
        },
        onData(stream, session, callback) {
          simpleParser(stream)
            .then(async (mail) => {
              const delayMs = behaviour.delayMs ?? 0;
              if (delayMs > 0) {
                pendingAnswers.add(mail);
                wake();
                await new Promise((r) => setTimeout(r, delayMs));
                pendingAnswers.delete(mail);
              }
              // A message whose sender hung up before the answer is not delivered (as in a real MTA).
              if (closedSessions.has(session.id)) abandoned.push(mail);
              else messages.push(mail);
              wake();
              callback();
            })
            .catch(callback);
        },
      });
      server.on("error", () => {});
      server.server.on("connection", (socket: Socket) => {
        sockets.add(socket);
        socket.once("close", () => sockets.delete(socket));
      });
      server.listen(port, "127.0.0.1", () => {
        port = (server!.server.address() as AddressInfo).port;
        resolve();
      });
      server.server.once("error", reject);
    });

  const until = (what: string, done: () => boolean, timeoutMs: number) =>
    new Promise<void>((resolve, reject) => {
      const check = () => {
        if (!done()) return;
        waiters.delete(check);
        clearTimeout(timer);
        resolve();
      };
      const timer = setTimeout(() => {
        waiters.delete(check);
        reject(
          new Error(
            `${what} not seen within ${timeoutMs} ms (received ${messages.length}, the last: ${messages
              .slice(-5)
              .map((m) => m.subject)
              .join(" | ")})`,
          ),
        );
      }, timeoutMs);
      waiters.add(check);
      check();
    });

  const pendingAtOnce = (
    count: number,
    match: (m: ParsedMail) => boolean = () => true,
    timeoutMs = 15_000,
  ) =>
    until(
      `${count} matching messages waiting for their answers`,
      () => [...pendingAnswers].filter(match).length >= count,
      timeoutMs,
    );

  await listen();
  return {
    get url() {
      return `smtp://127.0.0.1:${port}`;
    },
    messages,
    get connections() {
      return connections;
    },
    behave(next) {
      behaviour = next;
    },
    async waitFor(match, timeoutMs = 15_000) {
      await until("a matching email", () => messages.some(match), timeoutMs);
      return messages.find(match)!;
    },
    waitForCount(count, match = () => true, timeoutMs = 15_000) {
      return until(
        `${count} matching emails`,
        () => messages.filter(match).length >= count,
        timeoutMs,
      );
    },
    waitForPendingAnswer: (match, timeoutMs) => pendingAtOnce(1, match, timeoutMs),
    waitForPendingAnswers: pendingAtOnce,
    waitForAbandoned(count, match = () => true, timeoutMs = 15_000) {
      return until(
        `${count} matching abandoned messages`,
        () => abandoned.filter(match).length >= count,
        timeoutMs,
      );
    },
    stop: () =>
      new Promise<void>((resolve) => {
        if (!server) return resolve();
        server.server.close(() => resolve());
        for (const socket of sockets) socket.destroy();
        wake();
      }),
    start: listen,
  };
}

export const addressOf = (m: ParsedMail): string => {
  const to = Array.isArray(m.to) ? m.to[0] : m.to;
  return to?.value[0]?.address ?? "";
};
