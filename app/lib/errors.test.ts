import { describe, expect, it } from "vitest";
import {
  CONNECTION_FAILED,
  readableError,
  readableMessage,
  retryAfterSeconds,
  SESSION_ENDED,
  sentTooRecently,
} from "./errors.ts";

describe("readable errors", () => {
  it("says the connection failed for a request that got no answer, in any browser's words", () => {
    for (const message of [
      "TypeError: Failed to fetch",
      "Failed to fetch",
      "NetworkError when attempting to fetch resource.",
      "Load failed",
      "fetch failed",
    ])
      expect(readableMessage(message)).toBe(CONNECTION_FAILED);
    expect(readableError(new TypeError("Failed to fetch"))).toBe(CONNECTION_FAILED);
  });

  it("says the session ended where supabase-js says its session is missing", () => {
    expect(readableMessage("Auth session missing!")).toBe(SESSION_ENDED);
  });

  it("keeps the server's own message, and names what is not an error", () => {
    expect(readableMessage("permission denied for view emails")).toBe(
      "permission denied for view emails",
    );
    expect(readableError("boom")).toBe("Something went wrong.");
  });
});

// GoTrue's refusals as supabase-js hands them over (an AuthApiError's message, code and status).
const failure = (status: number, code: string, message: string) => ({ status, code, message });

describe("rate limits in people's words, with how long to wait", () => {
  it("says when another email can be asked for, from the seconds the server gives", () => {
    const tooSoon = failure(
      429,
      "over_email_send_rate_limit",
      "For security purposes, you can only request this after 42 seconds.",
    );
    expect(readableMessage(tooSoon)).toBe(
      "For your security, we send at most one email a minute. You can ask for another in 42 seconds.",
    );
    expect(retryAfterSeconds(tooSoon)).toBe(42);
    expect(sentTooRecently(tooSoon)).toBe(true);
    expect(
      readableMessage(
        failure(
          429,
          "over_sms_send_rate_limit",
          "For security purposes, you can only request this after 1 seconds.",
        ),
      ),
    ).toBe(
      "For your security, we send at most one text message a minute. You can ask for another in 1 second.",
    );
    // Under a second left, which the server names as 0 (it rounds down, as GoTrue does).
    expect(
      readableMessage(
        failure(
          429,
          "over_email_send_rate_limit",
          "For security purposes, you can only request this after 0 seconds.",
        ),
      ),
    ).toBe(
      "For your security, we send at most one email a minute. You can ask for another in 1 second.",
    );
  });

  it("says the hour's email or text budget is spent, and to come back within the hour", () => {
    const budget = failure(429, "over_email_send_rate_limit", "email rate limit exceeded");
    expect(readableMessage(budget)).toBe(
      "We've sent as many emails as we can for now. Please try again in an hour.",
    );
    expect(sentTooRecently(budget)).toBe(false);
    expect(retryAfterSeconds(budget)).toBeNull();
    expect(
      readableMessage(failure(429, "over_sms_send_rate_limit", "SMS rate limit exceeded")),
    ).toBe("We've sent as many text messages as we can for now. Please try again in an hour.");
  });

  it("says too many attempts were made and to wait a minute, for any other 429", () => {
    const words = "Too many attempts in a short time. Please wait a minute, then try again.";
    expect(
      readableMessage(failure(429, "over_request_rate_limit", "Request rate limit reached")),
    ).toBe(words);
    expect(readableMessage({ status: 429, message: "Too Many Requests" })).toBe(words);
  });

  it("says a second factor is locked after wrong codes, and how long to wait", () => {
    expect(
      readableMessage(
        failure(
          429,
          "over_request_rate_limit",
          "For security purposes, you can only request this after 299 seconds.",
        ),
      ),
    ).toBe("Too many wrong codes. For your security, you can try again in 5 minutes.");
  });

  it("puts a wrong or expired emailed confirmation code in people's words", () => {
    expect(
      readableMessage(
        failure(422, "reauthentication_not_valid", "Nonce has expired or is invalid"),
      ),
    ).toBe("That code is wrong or has expired. Check the latest email or ask for a new code.");
  });

  it("keeps the server's words for other failures, and the connection's for no answer", () => {
    expect(readableMessage(failure(400, "invalid_credentials", "Invalid login credentials"))).toBe(
      "Invalid login credentials",
    );
    expect(readableMessage({ status: 0, message: "Failed to fetch" })).toBe(CONNECTION_FAILED);
  });
});
