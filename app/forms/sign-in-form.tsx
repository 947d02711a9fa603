// The sign-in page's form: email and password, "Sign in" and
// an outlined "Sign up", both disabled while a request runs; no client-side validation. Also the
// "Forgot password?" request that a real product needs, and a sign-in link by email instead of the
// password. What follows a password sign-in (the code step, the next page) is the caller's.
import { useRef, useState } from "react";
import { Button } from "../components/ui/button.tsx";
import { Field } from "../components/ui/field.tsx";
import { Input } from "../components/ui/input.tsx";
import { getSupabase } from "../lib/supabase.ts";
import { errorToast, toast } from "../lib/toast.ts";
import { FORM_FALLBACK_ACTION } from "../lib/form-fallback.ts";

// Fields are read from the page (uncontrolled), so nothing typed before the island woke up is lost.
export function SignInForm({ onSignedIn }: { onSignedIn: () => void }) {
  const [mode, setMode] = useState<"sign-in" | "recover">("sign-in");
  const [busy, setBusy] = useState(false);
  const formRef = useRef<HTMLFormElement>(null);
  const read = () => {
    const data = new FormData(formRef.current ?? undefined);
    return { email: String(data.get("email") ?? ""), password: String(data.get("password") ?? "") };
  };

  const run = async (action: () => Promise<void>) => {
    setBusy(true);
    try {
      await action();
    } catch (err) {
      errorToast(err instanceof Error ? err.message : "Something went wrong. Please try again.");
    } finally {
      setBusy(false);
    }
  };

  const signIn = () =>
    run(async () => {
      const { email, password } = read();
      const supabase = await getSupabase();
      const { data, error } = await supabase.auth.signInWithPassword({ email, password });
      if (error) return errorToast(error.message);
      if (!data.session || !data.user)
        return errorToast("Sign-in did not return a session. Please try again.");
      onSignedIn();
    });

  // The link comes back to this page, which finishes the sign-in (or asks for the app's code).
  const emailLink = () =>
    run(async () => {
      const { email } = read();
      if (!email.trim()) return errorToast("Enter your email first, then ask for the link.");
      const supabase = await getSupabase();
      const { error } = await supabase.auth.signInWithOtp({
        email: email.trim(),
        options: { emailRedirectTo: `${window.location.origin}/auth` },
      });
      if (error) return errorToast(error.message);
      toast({
        title: "Check your email",
        description: `We've sent a sign-in link to ${email.trim()}. It works once, within the hour.`,
      });
    });

  const signUp = () =>
    run(async () => {
      const { email, password } = read();
      const supabase = await getSupabase();
      const { error } = await supabase.auth.signUp({
        email,
        password,
        options: { emailRedirectTo: `${window.location.origin}/` },
      });
      if (error) return errorToast(error.message);
      toast({ title: "Success!", description: "Please check your email for verification." });
    });

  const recover = () =>
    run(async () => {
      const { email } = read();
      const supabase = await getSupabase();
      const { error } = await supabase.auth.resetPasswordForEmail(email, {
        redirectTo: `${window.location.origin}/auth/reset-password`,
      });
      if (error) return errorToast(error.message);
      toast({
        title: "Check your email",
        description:
          "If an account uses this address, we've sent it a link to choose a new password.",
      });
      setMode("sign-in");
    });

  const emailField = (
    <Field label="Email">
      {(p) => (
        <Input
          {...p}
          name="email"
          type="email"
          autoComplete="email"
          inputMode="email"
          placeholder="Enter your email"
        />
      )}
    </Field>
  );

  if (mode === "recover") {
    return (
      <form
        method="post"
        action={FORM_FALLBACK_ACTION}
        ref={formRef}
        noValidate
        aria-label="Reset your password"
        className="grid gap-4"
        onSubmit={(e) => {
          e.preventDefault();
          void recover();
        }}
      >
        <p className="text-sm text-slate-700">
          Enter the email of your account and we'll send you a link to choose a new password.
        </p>
        {emailField}
        <Button type="submit" size="lg" disabled={busy} aria-busy={busy}>
          Send reset link
        </Button>
        <Button type="button" variant="ghost" onClick={() => setMode("sign-in")} disabled={busy}>
          Back to sign in
        </Button>
      </form>
    );
  }

  return (
    <form
      method="post"
      action={FORM_FALLBACK_ACTION}
      ref={formRef}
      noValidate
      aria-label="Sign in"
      className="grid gap-4"
      onSubmit={(e) => {
        e.preventDefault();
        void signIn();
      }}
    >
      {emailField}
      <Field label="Password">
        {(p) => (
          <Input
            {...p}
            name="password"
            type="password"
            autoComplete="current-password"
            placeholder="Enter your password"
          />
        )}
      </Field>
      <button
        type="button"
        onClick={() => setMode("recover")}
        className="justify-self-end text-sm font-medium text-primary underline-offset-4 hover:underline"
      >
        Forgot password?
      </button>
      <div className="grid gap-3" aria-busy={busy}>
        <Button type="submit" size="lg" disabled={busy}>
          Sign in
        </Button>
        <Button
          type="button"
          size="lg"
          variant="outline"
          disabled={busy}
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
          disabled={busy}
          onClick={() => void emailLink()}
        >
          Email me a sign-in link
        </Button>
      </div>
    </form>
  );
}
