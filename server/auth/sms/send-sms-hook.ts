// GoTrue's "Send SMS" HTTP hook: the message is POSTed as JSON, signed as Standard Webhooks sign
// (webhook-id, webhook-timestamp, webhook-signature), to the configured URL. The hook answers
// 200/202 with a JSON body (which may carry {error: {http_code, message}}) or 204; every other
// answer (a redirect too: none is followed, as webhooks follow none), and a hook that cannot be
// reached in time, fails the request with GoTrue's status and code for it.
import crypto from "node:crypto";
import type { SendSmsHook } from "../../config.ts";
import { signWebhook } from "../../security/standard-webhooks.ts";
import { AuthError, ErrorCode } from "../errors.ts";

export type HookTiming = {
  /** Every attempt together must finish within this. */
  timeoutMs: number;
  /** The wait before trying again after a connection failure. */
  backoffMs: number;
  attempts: number;
  /** The largest answer body read. */
  responseLimit: number;
};

export const HOOK_TIMING: HookTiming = {
  timeoutMs: 5000,
  backoffMs: 2000,
  attempts: 3,
  responseLimit: 200 * 1024,
};

const failure = (message: string) => new AuthError(500, ErrorCode.unexpected_failure, message);

/** POSTs one hook input; resolves when the hook accepted it, else throws GoTrue's AuthError. */
export async function dispatchHook(
  hook: SendSmsHook,
  input: object,
  timing: HookTiming = HOOK_TIMING,
): Promise<void> {
  const payload = JSON.stringify(input);
  const deadline = AbortSignal.timeout(timing.timeoutMs);
  const timedOut = () =>
    new AuthError(
      422,
      ErrorCode.hook_timeout,
      `Failed to reach hook within maximum time of ${(timing.timeoutMs / 1000).toFixed(6)} seconds`,
    );
  for (let attempt = 0; attempt < timing.attempts; attempt++) {
    const id = crypto.randomUUID();
    const timestamp = Math.floor(Date.now() / 1000);
    let response: Response;
    try {
      response = await fetch(hook.url, {
        method: "POST",
        headers: {
          "content-type": "application/json",
          "webhook-id": id,
          "webhook-timestamp": String(timestamp),
          "webhook-signature": signWebhook(hook.secrets, id, timestamp, payload),
          "accept-encoding": "identity",
        },
        body: payload,
        signal: deadline,
        // A redirect is not the hook's answer: it is refused as any other unexpected status.
        redirect: "manual",
      });
    } catch {
      if (deadline.aborted) throw timedOut();
      if (attempt < timing.attempts - 1) {
        await wait(timing.backoffMs, deadline).catch(() => {
          throw timedOut();
        });
        continue;
      }
      throw new AuthError(
        422,
        ErrorCode.hook_timeout_after_retry,
        "Failed to reach hook after maximum retries",
      );
    }
    switch (response.status) {
      case 204:
        await response.body?.cancel();
        return;
      case 200:
      case 202:
        // The answer must arrive within the same deadline as the request.
        return checkAnswer(response, timing.responseLimit).catch((err: unknown) => {
          throw deadline.aborted && !(err instanceof AuthError) ? timedOut() : err;
        });
      case 429:
      case 503:
        await response.body?.cancel();
        // A hook that says when to come back is tried again at once, as GoTrue does.
        if (response.headers.get("retry-after")) continue;
        throw failure("Service currently unavailable due to hook");
      case 400:
        await response.body?.cancel();
        throw failure("Invalid payload sent to hook");
      case 401:
        await response.body?.cancel();
        throw failure("Hook requires authorization token");
      default:
        await response.body?.cancel();
        throw failure(`Unexpected status code returned from hook: ${response.status}`);
    }
  }
  throw failure("Service currently unavailable due to hook");
}

/** A 200/202 answer: JSON, at most the limit, and not an error object. */
async function checkAnswer(response: Response, limit: number): Promise<void> {
  const contentType = response.headers.get("content-type");
  const invalidType = (message: string) =>
    new AuthError(400, ErrorCode.hook_payload_invalid_content_type, message);
  if (!contentType) {
    await response.body?.cancel();
    throw invalidType("Invalid Content-Type: Missing Content-Type header");
  }
  if (contentType.split(";")[0]!.trim().toLowerCase() !== "application/json") {
    await response.body?.cancel();
    throw invalidType(`Invalid JSON response. Received content-type: ${contentType}`);
  }
  const body = await readLimited(response, limit);
  let answer: unknown;
  try {
    answer = JSON.parse(body.toString("utf8"));
  } catch {
    throw failure("Error unmarshaling JSON output.");
  }
  const error = (answer as { error?: { http_code?: unknown; message?: unknown } } | null)?.error;
  if (error && typeof error === "object" && typeof error.message === "string" && error.message) {
    const status =
      typeof error.http_code === "number" && error.http_code >= 400 && error.http_code < 600
        ? error.http_code
        : 500;
    throw new AuthError(
      status,
      status === 500 ? ErrorCode.unexpected_failure : ErrorCode.unknown,
      error.message,
    );
  }
}

async function readLimited(response: Response, limit: number): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of response.body ?? []) {
    size += (chunk as Uint8Array).byteLength;
    if (size > limit) {
      await response.body?.cancel().catch(() => {});
      throw new AuthError(
        422,
        ErrorCode.hook_payload_over_size_limit,
        `Payload size exceeded size limit of ${limit} bytes`,
      );
    }
    chunks.push(Buffer.from(chunk as Uint8Array));
  }
  return Buffer.concat(chunks);
}

function wait(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener(
      "abort",
      () => {
        clearTimeout(timer);
        reject(signal.reason as Error);
      },
      { once: true },
    );
  });
}
