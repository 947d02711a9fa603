import type { User } from "@supabase/supabase-js";
import { describe, expect, it } from "vitest";
import { firstStep, signInStep, type SignInStep } from "./sign-in-steps.ts";

const user = { id: "u1", email: "ada@example.com" } as User;
const recover: SignInStep = { view: "recover", email: "ada@example.com" };

describe("the sign-in panel's steps", () => {
  it("starts on the empty password form, which keeps the focus where the visitor put it", () => {
    expect(firstStep).toEqual({ view: "sign-in", email: "", takeFocus: false });
  });

  it("carries the address typed into the recovery and back, the form taking the focus", () => {
    const recovering = signInStep(firstStep, { type: "forgot-password", email: "ada@example.com" });
    expect(recovering).toEqual(recover);
    expect(signInStep(recovering, { type: "back", email: "bob@example.com" })).toEqual({
      view: "sign-in",
      email: "bob@example.com",
      takeFocus: true,
    });
  });

  it("takes each sent email's code, knowing the address it went to", () => {
    for (const sent of ["signInLink", "confirmation", "recovery"] as const) {
      const step = signInStep(firstStep, { type: "email-sent", sent, email: "ada@example.com" });
      expect(step).toEqual({ view: "email-code", sent, email: "ada@example.com" });
    }
  });

  it("asks for the app's code when the session owes it, else shows who is signed in", () => {
    const owed = { type: "session", factorId: "f1", user } as const;
    expect(signInStep(firstStep, owed)).toEqual({
      view: "app-code",
      factorId: "f1",
      securityKey: false,
    });
    // A security key is the second step of an account whose only factor it is.
    expect(signInStep(firstStep, { ...owed, securityKey: true })).toEqual({
      view: "app-code",
      factorId: "f1",
      securityKey: true,
    });
    expect(signInStep(firstStep, { type: "session", factorId: null, user })).toEqual({
      view: "signed-in",
      user,
    });
  });

  it("takes a recovery code in place of the app's code, and goes back to the app's", () => {
    const app: SignInStep = { view: "app-code", factorId: "f1", securityKey: true };
    const recovery = signInStep(app, { type: "use-recovery-code" });
    expect(recovery).toEqual({ view: "recovery-code", factorId: "f1", securityKey: true });
    expect(signInStep(recovery, { type: "use-app-code" })).toEqual(app);
    // Only from the second step: elsewhere these change nothing.
    expect(signInStep(recover, { type: "use-recovery-code" })).toBe(recover);
    expect(signInStep(app, { type: "use-app-code" })).toBe(app);
  });

  it("stays where the visitor is when there is no session after all", () => {
    const none = { type: "session", factorId: null, user: null } as const;
    expect(signInStep(recover, none)).toBe(recover);
  });

  it("drops whoever was signed in when the session ends: the empty form takes the focus", () => {
    for (const step of [
      { view: "app-code", factorId: "f1", securityKey: false },
      { view: "recovery-code", factorId: "f1", securityKey: false },
      { view: "signed-in", user },
    ] satisfies SignInStep[])
      expect(signInStep(step, { type: "signed-out" })).toEqual({
        view: "sign-in",
        email: "",
        takeFocus: true,
      });
  });
});
