import { describe, expect, it } from "vitest";
import { sameSecret } from "./constant-time.ts";

describe("sameSecret", () => {
  it("tells equal secrets from different ones, whatever their characters", () => {
    expect(sameSecret("123456", "123456")).toBe(true);
    expect(sameSecret("123456", "123457")).toBe(false);
    expect(sameSecret("123456", "12345")).toBe(false);
    // Six characters each, seven bytes against six: unequal, not an exception.
    expect(sameSecret("123456", "12345é")).toBe(false);
  });
});
