// A real webhook receiver on loopback, as a CRM's would be written from the Standard Webhooks
// docs: an HTTP server that verifies each request's signature with the `standardwebhooks`
// package, keeps every verified event with its webhook-id and the status it answered, and answers
// as told (204 by default). It can be stopped and started again on the same port (an outage).
import http from "node:http";
import type { AddressInfo } from "node:net";
import { Webhook } from "standardwebhooks";

export type LeadEvent = {
  type: string;
  timestamp: string;
  data: Record<string, unknown> & { id: string; kind: string; created_at: string };
};

export type Receipt = {
  id: string;
  event: LeadEvent;
  /** The status this request was answered with; 0 when the sender hung up before the answer. */
  status: number;
  at: number;
};

export type ReceiverAnswer = { status: number; headers?: Record<string, string>; delayMs?: number };

export type WebhookReceiver = {
  readonly url: string;
  readonly secret: string;
  /** LEAD_WEBHOOK_URL and LEAD_WEBHOOK_SECRET pointing at this receiver. */
  readonly env: Record<string, string>;
  /** Every verified request, in order of answer. */
  readonly receipts: Receipt[];
  /** Requests refused because their signature did not verify. */
  readonly forged: number;
  /** Verified requests not answered yet. */
  readonly pending: number;
  /** How to answer the nth request from now on (counted from 0); undefined: 204. */
  answer(next: ((n: number) => ReceiverAnswer) | undefined): void;
  /** The receipts accepted (2xx) for this webhook-id. */
  accepted(id: string): Receipt[];
  /** Resolves once `predicate` holds for the receipts (checked on each arrival), else rejects. */
  waitFor(predicate: (receipts: Receipt[]) => boolean, timeoutMs?: number): Promise<void>;
  /** Closes the port (requests to it are refused) until start(). */
  stop(): Promise<void>;
  start(): Promise<void>;
};

/** A secret as Standard Webhooks writes one: `whsec_` and 32 random bytes in base64. */
export const webhookSecret = () =>
  `whsec_${Buffer.from(crypto.getRandomValues(new Uint8Array(32))).toString("base64")}`;

export async function startWebhookReceiver(secret = webhookSecret()): Promise<WebhookReceiver> {
  const verifier = new Webhook(secret);
  const receipts: Receipt[] = [];
  const waiters = new Set<() => void>();
  let forged = 0;
  let pending = 0;
  let count = 0;
  let answer: ((n: number) => ReceiverAnswer) | undefined;
  let port = 0;
  let server: http.Server | undefined;

  const handle = (req: http.IncomingMessage, res: http.ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const body = Buffer.concat(chunks).toString("utf8");
      let event: LeadEvent;
      try {
        event = verifier.verify(body, req.headers as Record<string, string>) as LeadEvent;
      } catch {
        forged += 1;
        res.writeHead(401).end();
        return;
      }
      const a = answer?.(count++) ?? { status: 204 };
      pending += 1;
      setTimeout(() => {
        pending -= 1;
        // A sender that hung up (killed, aborted) never got this answer: kept as status 0.
        receipts.push({
          id: String(req.headers["webhook-id"]),
          event,
          status: req.socket.destroyed ? 0 : a.status,
          at: Date.now(),
        });
        res.writeHead(a.status, a.headers).end();
        for (const wake of waiters) wake();
      }, a.delayMs ?? 0);
    });
  };

  const start = async () => {
    server = http.createServer(handle);
    await new Promise<void>((resolve) => server!.listen(port, "127.0.0.1", resolve));
    port = (server.address() as AddressInfo).port;
  };
  await start();
  const url = `http://127.0.0.1:${port}/hooks/leads`;

  return {
    url,
    secret,
    env: { LEAD_WEBHOOK_URL: url, LEAD_WEBHOOK_SECRET: secret },
    receipts,
    get forged() {
      return forged;
    },
    get pending() {
      return pending;
    },
    answer(next) {
      answer = next;
      count = 0;
    },
    accepted: (id) => receipts.filter((r) => r.id === id && r.status >= 200 && r.status < 300),
    waitFor: (predicate, timeoutMs = 15_000) =>
      new Promise<void>((resolve, reject) => {
        const check = () => {
          if (!predicate(receipts)) return;
          waiters.delete(check);
          clearTimeout(timer);
          resolve();
        };
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(new Error(`the webhook receiver did not see what was awaited in ${timeoutMs} ms`));
        }, timeoutMs);
        waiters.add(check);
        check();
      }),
    stop: () =>
      new Promise<void>((resolve) => {
        server?.closeAllConnections();
        server?.close(() => resolve());
      }),
    start,
  };
}
