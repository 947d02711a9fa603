// The sign-in panel's step machine: which view the panel shows, and what each event leads to. The
// views are plain components that report what happened (an email went out, a session needs its
// app's code); this is the one place that decides what shows next. The second step is the app's
// code or, for someone who lost their phone, a recovery code: two views of one step. A new way to sign in (a
// provider, SSO, a passkey) is one more view here and one more component.
import type { User } from "@supabase/supabase-js";
import type { SentEmail } from "../../content/sign-in.ts";

export type SignInStep =
  /**
   * The password form, with the email typed before (in another view, or the address an email went
   * to); `takeFocus` when it replaces another view, so its first field takes the focus.
   */
  | { view: "sign-in"; email: string; takeFocus: boolean }
  /** The request for a password reset link. */
  | { view: "recover"; email: string }
  /** An account email went out to `email`: its code is taken here. */
  | { view: "email-code"; sent: SentEmail; email: string }
  /**
   * A session that owes its second step (aal1 of someone with a verified factor): the
   * authenticator app's code, or the security key's touch (`securityKey`).
   */
  | { view: "app-code"; factorId: string; securityKey: boolean }
  /** The same session, passing its second step with a recovery code instead (a lost phone). */
  | { view: "recovery-code"; factorId: string; securityKey: boolean }
  | { view: "signed-in"; user: User };

export type SignInEvent =
  /** Back to the password form, with the address to put in its email field. */
  | { type: "back"; email: string }
  | { type: "forgot-password"; email: string }
  | { type: "email-sent"; sent: SentEmail; email: string }
  /** Where the session stands, read after a sign-in or at load. */
  | { type: "session"; factorId: string | null; securityKey?: boolean; user: User | null }
  /** The second step by a recovery code in place of the app's code, and back. */
  | { type: "use-recovery-code" }
  | { type: "use-app-code" }
  /** The session ended (signed out here, in another tab, or elsewhere). */
  | { type: "signed-out" };

/** The prerendered view: the empty password form, which the island wakes into. */
export const firstStep: SignInStep = { view: "sign-in", email: "", takeFocus: false };

export function signInStep(step: SignInStep, event: SignInEvent): SignInStep {
  switch (event.type) {
    case "back":
      return { view: "sign-in", email: event.email, takeFocus: true };
    case "forgot-password":
      return { view: "recover", email: event.email };
    case "email-sent":
      return { view: "email-code", sent: event.sent, email: event.email };
    case "session":
      if (event.factorId)
        return {
          view: "app-code",
          factorId: event.factorId,
          securityKey: event.securityKey ?? false,
        };
      if (event.user) return { view: "signed-in", user: event.user };
      return step;
    case "use-recovery-code":
      return step.view === "app-code" ? { ...step, view: "recovery-code" } : step;
    case "use-app-code":
      return step.view === "recovery-code" ? { ...step, view: "app-code" } : step;
    case "signed-out":
      return { view: "sign-in", email: "", takeFocus: true };
  }
}
