// The account forms' password rule is the server's: a length in UTF-8 bytes, as GoTrue counts it.
import { describe, expect, it } from "vitest";
import { MIN_PASSWORD_LENGTH, newPasswordSchema } from "./accounts.ts";

const check = (password: string) =>
  newPasswordSchema.safeParse({ password, confirm: password }).success;

describe("newPasswordSchema", () => {
  it("counts a password's length in bytes, as the server does", () => {
    expect(MIN_PASSWORD_LENGTH).toBe(8);
    expect(check("éàüö")).toBe(true); // four letters, eight bytes
    expect(check("😀😀")).toBe(true); // two emoji, eight bytes
    expect(check("abcdefg")).toBe(false);
    expect(check("éàü")).toBe(false); // six bytes
  });
});
