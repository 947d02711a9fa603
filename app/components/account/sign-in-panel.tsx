// The sign-in page's island: the form for a visitor; for someone with an authenticator app, the
// code step before the session counts (after the password, the emailed code, or after the emailed
// link brought them back); for someone already signed in, who they are, their account page and Logout.
import type { User } from "@supabase/supabase-js";
import { useEffect, useRef, useState } from "react";
import { AppCodeStep } from "../../forms/code-form.tsx";
import { SignInForm } from "../../forms/sign-in-form.tsx";
import { hasSessionToResume } from "../../lib/account-signals.ts";
import { nameOf, owedFactorId, returnPath } from "../../lib/account.ts";
import { useSessionWatch } from "../../lib/session-watch.ts";
import { getSupabase } from "../../lib/supabase.ts";
import { flashToast } from "../../lib/toast.ts";
import { Button } from "../ui/button.tsx";
import { SiteAndLogout } from "./site-and-logout.tsx";

type State =
  | { step: "form"; takeFocus?: boolean }
  | { step: "code"; factorId: string }
  | { step: "signed-in"; user: User };

/** Where the session stands: the code still to enter, or signed in. */
async function sessionState(): Promise<State> {
  const supabase = await getSupabase();
  const { data } = await supabase.auth.getSession();
  if (!data.session) return { step: "form" };
  const factorId = await owedFactorId(supabase);
  if (factorId) return { step: "code", factorId };
  return { step: "signed-in", user: data.session.user };
}

export function SignInPanel() {
  const [state, setState] = useState<State>({ step: "form" });
  const heading = useRef<HTMLHeadingElement>(null);

  useEffect(() => {
    if (!hasSessionToResume()) return;
    void sessionState().then((now) => {
      // Signed in (by an emailed link, or earlier) on the way to another page (`?next=/team`):
      // go on there.
      const next = returnPath(window.location.search);
      if (now.step === "signed-in" && next !== "/") return window.location.assign(next);
      setState(now);
    });
  }, []);
  // Signed out meanwhile (Logout in another tab, the session ended on another device): the form,
  // who was signed in dropped. This page makes no data request to be refused.
  useSessionWatch({
    active: state.step !== "form",
    signedOut: () => setState({ step: "form", takeFocus: true }),
    recheck: () => {},
  });
  // A step that replaces the form takes the focus to its heading, so it is announced and the
  // keyboard starts there (the code step's does so itself; the form, back in place of a step, to
  // its first field).
  useEffect(() => {
    if (state.step === "signed-in") heading.current?.focus();
  }, [state.step]);

  if (state.step === "code") {
    return (
      <AppCodeStep
        factorId={state.factorId}
        description="Your account uses two-step verification. Open your authenticator app and enter the 6-digit code it shows for Revwise."
        submitLabel="Verify and sign in"
        onVerified={() => {
          flashToast({ title: "Signed in", description: "Welcome back to Revwise." });
          window.location.assign(returnPath(window.location.search));
        }}
        cancel={{
          label: "Use a different account",
          onClick: async () => {
            await (await getSupabase()).auth.signOut({ scope: "local" });
            setState({ step: "form", takeFocus: true });
          },
        }}
      />
    );
  }

  if (state.step === "signed-in") {
    const { user } = state;
    const name = nameOf(user);
    return (
      <div className="grid gap-5">
        <div className="rounded-xl border border-indigo-100 bg-indigo-50 p-5 text-sm leading-6 text-slate-700">
          <h2 ref={heading} tabIndex={-1} className="font-semibold text-ink outline-none">
            You're signed in
          </h2>
          <p className="mt-1">
            {name ? `${name}, you're` : "You're"} signed in as{" "}
            <strong className="font-semibold break-all text-ink">{user.email}</strong>.
          </p>
        </div>
        <div className="grid gap-3">
          <Button asChild size="lg">
            <a href="/account">Go to your account</a>
          </Button>
          <SiteAndLogout size="lg" />
        </div>
      </div>
    );
  }

  return (
    <SignInForm
      takeFocus={state.takeFocus}
      onSignedIn={async (welcome) => {
        const next = await sessionState();
        if (next.step === "code") return setState(next);
        if (welcome) flashToast(welcome);
        window.location.assign(returnPath(window.location.search));
      }}
    />
  );
}
