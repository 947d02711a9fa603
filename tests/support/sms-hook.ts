// A real Send SMS hook on loopback: an HTTP server that verifies each request's Standard Webhooks
// signature with the `standardwebhooks` package (as a hook written from Supabase's docs does),
// keeps every message it accepted, and answers as told (204 by default).
import http from "node:http";
import type { AddressInfo } from "node:net";
import { Webhook } from "standardwebhooks";

export type HookSms = {
  metadata: { uuid: string; time: string; name: string; ip_address: string };
  user: Record<string, unknown> & { id: string; phone: string };
  sms: { otp: string; phone: string; sms_type?: string };
};

export type HookAnswer = {
  status: number;
  headers?: Record<string, string>;
  body?: string;
  /** How long the hook takes to answer. */
  delayMs?: number;
  /** The answer waits for this too (a test holds the hook, then lets it answer). */
  until?: Promise<unknown>;
};

export type TestSmsHook = {
  /** The hook's URL and the GOTRUE_HOOK_SEND_SMS_* variables that point the server at it. */
  readonly url: string;
  readonly env: Record<string, string>;
  /** Messages whose signature verified, in order. */
  readonly messages: HookSms[];
  /** Requests refused because their signature did not verify. */
  readonly forged: number;
  /** How the hook answers from the next request on (undefined: 204, no body). */
  answer(next: ((attempt: number) => HookAnswer) | undefined): void;
  /** The newest message to this phone (digits), once there are `count` (already or arriving). */
  waitFor(phone: string, count?: number): Promise<HookSms>;
  /** The code of the newest message to this phone, once there are `count` of them. */
  codeFor(phone: string, count?: number): Promise<string>;
  stop(): Promise<void>;
};

/** A symmetric secret as Supabase's dashboard shows it: `v1,whsec_` and 32 random bytes in base64. */
export const hookSecret = () =>
  `v1,whsec_${Buffer.from(crypto.getRandomValues(new Uint8Array(32))).toString("base64")}`;

export async function startSmsHook(secret = hookSecret()): Promise<TestSmsHook> {
  const verifier = new Webhook(secret.replace("v1,whsec_", ""));
  const messages: HookSms[] = [];
  const waiters = new Set<() => void>();
  let forged = 0;
  let attempts = 0;
  let answer: ((attempt: number) => HookAnswer) | undefined;

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const body = Buffer.concat(chunks).toString("utf8");
      try {
        messages.push(verifier.verify(body, req.headers as Record<string, string>) as HookSms);
      } catch {
        forged += 1;
        res.writeHead(401).end();
        return;
      }
      for (const wake of waiters) wake();
      const a = answer?.(attempts++) ?? { status: 204 };
      void Promise.all([a.until, new Promise((r) => setTimeout(r, a.delayMs ?? 0))]).then(() =>
        res.writeHead(a.status, a.headers).end(a.body),
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/send-sms`;

  const waitFor = (phone: string, count: number, timeoutMs: number) =>
    new Promise<HookSms>((resolve, reject) => {
      const to = () => messages.filter((m) => m.sms.phone === phone);
      const check = () => {
        if (to().length < count) return;
        waiters.delete(check);
        clearTimeout(timer);
        resolve(to().at(-1)!);
      };
      const timer = setTimeout(() => {
        waiters.delete(check);
        reject(new Error(`no text message to ${phone} within ${timeoutMs} ms`));
      }, timeoutMs);
      waiters.add(check);
      check();
    });

  return {
    url,
    env: {
      GOTRUE_HOOK_SEND_SMS_ENABLED: "true",
      GOTRUE_HOOK_SEND_SMS_URI: url,
      GOTRUE_HOOK_SEND_SMS_SECRETS: secret,
    },
    messages,
    get forged() {
      return forged;
    },
    answer(next) {
      answer = next;
      attempts = 0;
    },
    waitFor: (phone, count = 1) => waitFor(phone, count, 10_000),
    codeFor: async (phone, count = 1) => (await waitFor(phone, count, 10_000)).sms.otp,
    stop: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
