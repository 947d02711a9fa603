// The sign-in page's form: email and password, "Sign in" and
// an outlined "Sign up", both busy while a request runs. The fields are only checked for being
// filled in before a request (decision 0037): their format and strength are the server's to judge.
// Also the "Forgot password?" request that a real product needs, a sign-in link by email instead of
// the password, and sending the confirmation email again to an account that is not confirmed yet.
// Each email sent (the sign-in link, the sign-up's confirmation, the recovery) carries a code beside
// its link: the form gives way to a step that takes it and does what the link does. What follows a
// sign-in (the app's code step, the next page) is the caller's.
import type * as React from "react";
import { useEffect, useRef, useState } from "react";
import { Button } from "../components/ui/button.tsx";
import { Field } from "../components/ui/field.tsx";
import { Input } from "../components/ui/input.tsx";
import { returnPath, signInHref } from "../lib/account.ts";
import { getSupabase } from "../lib/supabase.ts";
import { errorToast, toast, type ToastInput } from "../lib/toast.ts";
import { useBusyAction } from "../lib/use-busy-action.ts";
import { EmailCodeStep } from "./code-form.tsx";
import { ScriptForm } from "./script-form.tsx";

/** The email just sent, whose code the page now takes. */
type Sent = "sign-in link" | "confirmation" | "recovery";
type Mode = "sign-in" | "recover" | Sent;

type Credentials = { email: string; password: string };
type Missing = Partial<Record<keyof Credentials, string>>;

/**
 * The fields left empty, with what to say under each: a sign-up without an email would be taken
 * by the server as an anonymous sign-up (and refused in words about that).
 */
function missingFields({ email, password }: Credentials): Missing {
  const missing: Missing = {};
  if (!email.trim()) missing.email = "Enter your email address.";
  if (!password) missing.password = "Enter your password.";
  return missing;
}

/** Where an emailed sign-in link leads: this page, with the page to go back to when there is one. */
function linkReturn(): string {
  const next = returnPath(window.location.search);
  return next === "/" ? "/auth" : signInHref(next);
}

const RESET_PAGE = "/auth/reset-password";

/** The page that sets a new password (the recovery's link or code), with the page to go back to. */
function resetHref(): string {
  const next = returnPath(window.location.search);
  return next === "/" ? RESET_PAGE : `${RESET_PAGE}?next=${encodeURIComponent(next)}`;
}

// Fields are read from the page (uncontrolled), so nothing typed before the island woke up is lost.
export function SignInForm({
  onSignedIn,
  takeFocus = false,
}: {
  /**
   * After a sign-in (a password, or an email's code), with what to say once it counts; the buttons
   * stay busy until it is done (it may navigate away).
   */
  onSignedIn: (welcome?: ToastInput) => Promise<void> | void;
  /** The form replaces another step: its first field takes the focus. */
  takeFocus?: boolean;
}) {
  const [mode, setMode] = useState<Mode>("sign-in");
  // The email typed in one mode is there in the other (typed once); a password never leaves its
  // field.
  const [email, setEmail] = useState("");
  const [busy, run] = useBusyAction();
  const formRef = useRef<HTMLFormElement>(null);
  const read = (): Credentials => {
    const data = new FormData(formRef.current ?? undefined);
    return { email: String(data.get("email") ?? ""), password: String(data.get("password") ?? "") };
  };
  const passwordInput = useRef<HTMLInputElement>(null);
  // The empty fields of the last attempt, each message under its field until it is typed in.
  const [missing, setMissing] = useState<Missing>({});
  /** The credentials when both are filled in; else null, the messages shown and the focus moved. */
  const filledIn = (): Credentials | null => {
    const credentials = read();
    const found = missingFields(credentials);
    setMissing(found);
    if (found.email) emailInput.current?.focus();
    else if (found.password) passwordInput.current?.focus();
    return found.email || found.password ? null : credentials;
  };
  // The address of an account that tried to sign in before it was confirmed: the way to have the
  // confirmation email sent again shows under Sign in.
  const [unconfirmed, setUnconfirmed] = useState<string | null>(null);

  // A view that replaces another takes the focus, so it is announced and the keyboard starts
  // there: the recovery's heading, the sign-in's first field.
  const heading = useRef<HTMLHeadingElement>(null);
  const emailInput = useRef<HTMLInputElement>(null);
  const [moved, setMoved] = useState(takeFocus);
  useEffect(() => {
    if (moved) (mode === "recover" ? heading : emailInput).current?.focus();
  }, [mode, moved]);
  const show = (next: Mode) => {
    // From a form, the email typed carries over; from a code step, the address the email went to.
    if (formRef.current) setEmail(read().email);
    setMissing({});
    setUnconfirmed(null);
    setMode(next);
    setMoved(true);
  };
  /** The email went out to `address`: the step that takes its code replaces the form. */
  const sent = (kind: Sent, address: string) => {
    setEmail(address);
    setMode(kind);
  };

  const signIn = () =>
    run(async () => {
      const credentials = filledIn();
      if (!credentials) return;
      const supabase = await getSupabase();
      const { data, error } = await supabase.auth.signInWithPassword(credentials);
      setUnconfirmed(error?.code === "email_not_confirmed" ? credentials.email : null);
      if (error) return errorToast(error);
      if (!data.session || !data.user)
        return errorToast("Sign-in did not return a session. Please try again.");
      await onSignedIn();
    });

  // The link comes back to this page, which finishes the sign-in (or asks for the app's code), with
  // the page that sent the visitor here (`?next=`), where it goes once signed in.
  const emailLink = () =>
    run(async () => {
      const { email } = read();
      if (!email.trim()) return errorToast("Enter your email first, then ask for the link.");
      const supabase = await getSupabase();
      const { error } = await supabase.auth.signInWithOtp({
        email: email.trim(),
        options: { emailRedirectTo: `${window.location.origin}${linkReturn()}` },
      });
      if (error) return errorToast(error);
      toast({
        title: "Check your email",
        description: `We've sent a sign-in link to ${email.trim()}. It works once, within the hour.`,
      });
      sent("sign-in link", email.trim());
    });

  const signUp = () =>
    run(async () => {
      const credentials = filledIn();
      if (!credentials) return;
      const { email, password } = credentials;
      const supabase = await getSupabase();
      const { data, error } = await supabase.auth.signUp({
        email,
        password,
        options: { emailRedirectTo: `${window.location.origin}/` },
      });
      if (error) return errorToast(error);
      toast({ title: "Success!", description: "Please check your email for verification." });
      // Without a session, an email went out (a confirmation, or to an address that has an
      // account, how to sign in): its code is taken here.
      if (!data.session) sent("confirmation", email.trim());
    });

  const resendConfirmation = (email: string) =>
    run(async () => {
      const supabase = await getSupabase();
      const { error } = await supabase.auth.resend({
        type: "signup",
        email,
        options: { emailRedirectTo: `${window.location.origin}/` },
      });
      if (error) return errorToast(error);
      toast({
        title: "Confirmation email sent",
        description: `We've sent a confirmation link to ${email}. Open it to finish signing up.`,
      });
      sent("confirmation", email);
    });

  const recover = () =>
    run(async () => {
      const { email } = read();
      const supabase = await getSupabase();
      const { error } = await supabase.auth.resetPasswordForEmail(email, {
        redirectTo: `${window.location.origin}${resetHref()}`,
      });
      if (error) return errorToast(error);
      toast({
        title: "Check your email",
        description:
          "If an account uses this address, we've sent it a link to choose a new password.",
      });
      sent("recovery", email.trim());
    });

  const emailField = (
    <Field label="Email" error={mode === "sign-in" ? missing.email : undefined}>
      {(p) => (
        <Input
          {...p}
          ref={emailInput}
          onInput={() => {
            setMissing(({ email: _, ...rest }) => rest);
            setUnconfirmed(null);
          }}
          name="email"
          type="email"
          autoComplete="email"
          inputMode="email"
          placeholder="Enter your email"
          defaultValue={email}
        />
      )}
    </Field>
  );

  if (mode === "sign-in link" || mode === "confirmation" || mode === "recovery") {
    const step = CODE_STEPS[mode](email);
    return (
      <EmailCodeStep
        key={mode}
        {...step}
        email={email}
        onVerified={async () => {
          // The recovery session sets the new password on the page the link opens.
          if (mode === "recovery") return window.location.assign(resetHref());
          await onSignedIn(mode === "confirmation" ? EMAIL_CONFIRMED : undefined);
        }}
        cancel={{ label: "Back to sign in", onClick: () => show("sign-in") }}
      />
    );
  }

  // Each mode is a form of its own (its key): React never reuses a field of one as a field of the
  // other, so a password is never shown or sent as an email.
  if (mode === "recover") {
    return (
      <ScriptForm
        key="recover"
        ref={formRef}
        label="Reset your password"
        className="grid gap-4"
        onSubmit={(e) => {
          e.preventDefault();
          void recover();
        }}
      >
        <div>
          <h2 ref={heading} tabIndex={-1} className="text-lg font-semibold text-ink outline-none">
            Reset your password
          </h2>
          <p className="mt-1 text-sm leading-6 text-slate-700">
            Enter the email of your account and we'll send you a link to choose a new password.
          </p>
        </div>
        {emailField}
        <Button type="submit" size="lg" aria-disabled={busy} aria-busy={busy}>
          Send reset link
        </Button>
        <Button type="button" variant="ghost" onClick={() => show("sign-in")} aria-disabled={busy}>
          Back to sign in
        </Button>
      </ScriptForm>
    );
  }

  return (
    <ScriptForm
      key="sign-in"
      ref={formRef}
      label="Sign in"
      className="grid gap-4"
      onSubmit={(e) => {
        e.preventDefault();
        void signIn();
      }}
    >
      {emailField}
      <Field label="Password" error={missing.password}>
        {(p) => (
          <Input
            {...p}
            ref={passwordInput}
            onInput={() => setMissing(({ password: _, ...rest }) => rest)}
            name="password"
            type="password"
            autoComplete="current-password"
            placeholder="Enter your password"
          />
        )}
      </Field>
      <button
        type="button"
        onClick={() => show("recover")}
        className="justify-self-end text-sm font-medium text-primary underline-offset-4 hover:underline"
      >
        Forgot password?
      </button>
      <div className="grid gap-3" aria-busy={busy}>
        <Button type="submit" size="lg" aria-disabled={busy}>
          Sign in
        </Button>
        {/* Always in the page, so that the note is announced when it appears. */}
        <p role="status" className="sr-only">
          {unconfirmed === null ? "" : "This account's email address isn't confirmed yet."}
        </p>
        {unconfirmed !== null && (
          <div className="grid gap-2 rounded-md border border-border bg-muted/40 p-3">
            <p className="text-sm leading-6 text-slate-700">
              This account's email address isn't confirmed yet. Open the link we emailed to{" "}
              <strong className="font-semibold break-all text-ink">{unconfirmed}</strong>, or have
              it sent again.
            </p>
            <Button
              type="button"
              variant="outline"
              aria-disabled={busy}
              onClick={() => void resendConfirmation(unconfirmed)}
            >
              Resend confirmation email
            </Button>
          </div>
        )}
        <Button
          type="button"
          size="lg"
          variant="outline"
          aria-disabled={busy}
          onClick={() => void signUp()}
        >
          Sign up
        </Button>
        <p className="flex items-center gap-3 text-xs font-medium text-slate-600 uppercase before:h-px before:flex-1 before:bg-border after:h-px after:flex-1 after:bg-border">
          or
        </p>
        <Button
          type="button"
          size="lg"
          variant="secondary"
          aria-disabled={busy}
          onClick={() => void emailLink()}
        >
          Email me a sign-in link
        </Button>
      </div>
    </ScriptForm>
  );
}

const EMAIL_CONFIRMED: ToastInput = {
  title: "Email confirmed",
  description: "Welcome to Revwise! You're signed in.",
};

const sentTo = (email: string) => (
  <strong className="font-semibold break-all text-ink">{email}</strong>
);

/** The step that takes each email's code: its words, and what the code is for at /verify. */
const CODE_STEPS: Record<
  Sent,
  (
    email: string,
  ) => Pick<
    React.ComponentProps<typeof EmailCodeStep>,
    "title" | "description" | "submitLabel" | "type"
  >
> = {
  "sign-in link": (email) => ({
    title: "Check your email",
    description: (
      <>
        We've sent a sign-in link and a 6-digit code to {sentTo(email)}. Open the link, or enter the
        code here.
      </>
    ),
    submitLabel: "Sign in",
    type: "email",
  }),
  confirmation: (email) => ({
    title: "Confirm your email",
    description: (
      <>
        We've sent a confirmation link and a 6-digit code to {sentTo(email)}. Open the link, or
        enter the code here to finish creating your account. If this address already has an account,
        the email says how to sign in instead.
      </>
    ),
    submitLabel: "Confirm email",
    type: "signup",
  }),
  recovery: (email) => ({
    title: "Check your email",
    description: (
      <>
        If an account uses {sentTo(email)}, we've sent it a link and a 6-digit code to choose a new
        password. Open the link, or enter the code here.
      </>
    ),
    submitLabel: "Continue",
    type: "recovery",
  }),
};
