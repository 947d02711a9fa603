import { describe, expect, it } from "vitest";
import { CONNECTION_FAILED, readableError, readableMessage, SESSION_ENDED } from "./errors.ts";

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
