import { describe, expect, it } from "vitest";
import { readEmailLink } from "./email-link.ts";

const ORIGIN = "https://revwise.example";
const read = (query: Record<string, string>) =>
  readEmailLink(`?${new URLSearchParams(query)}`, ORIGIN);

describe("readEmailLink", () => {
  it("reads the token hash and type, and goes on to the page of this site the link names", () => {
    expect(
      read({
        token_hash: "pkce_abc",
        type: "magiclink",
        redirect_to: `${ORIGIN}/auth?next=%2Faccount`,
      }),
    ).toEqual({ tokenHash: "pkce_abc", type: "magiclink", next: "/auth?next=%2Faccount" });
    expect(read({ token_hash: "x", type: "signup", redirect_to: `${ORIGIN}/` })?.next).toBe("/");
  });

  it.each([
    ["another site", "https://evil.example/phish"],
    ["another scheme", "javascript:alert(1)"],
    ["a host hidden behind a tab", `${ORIGIN}/\t/evil.example`],
    ["a path that reads as a host", `${ORIGIN}/..//evil.example`],
    ["no URL at all", "http://["],
  ])("goes home instead of to %s", (_what, redirectTo) => {
    expect(read({ token_hash: "x", type: "recovery", redirect_to: redirectTo })?.next).toBe("/");
  });

  it.each([
    [{ type: "signup" }],
    [{ token_hash: "x" }],
    [{ token_hash: "x", type: "sms" }],
    [{ token_hash: "x", type: "toString" }],
  ])("is null for a link cut short or of no known use: %o", (query) => {
    expect(read(query)).toBeNull();
  });
});
