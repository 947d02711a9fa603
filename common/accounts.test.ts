// The account forms' password rule is the server's: a length in UTF-8 bytes, as GoTrue counts it.
import { describe, expect, it } from "vitest";
import { MIN_PASSWORD_LENGTH, newPasswordSchema, profileNameSchema } from "./accounts.ts";

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

describe("profileNameSchema", () => {
  it("takes 100 characters, and says so truly of 101", () => {
    expect(profileNameSchema.safeParse({ name: "a".repeat(100) }).success).toBe(true);
    const tooLong = profileNameSchema.safeParse({ name: "a".repeat(101) });
    expect(tooLong.error?.issues[0]?.message).toBe("Keep your name to 100 characters or fewer.");
  });
});
