// The sign-in page's island: one step machine (sign-in-steps.ts) decides which view shows, and
// each view is a plain component that reports what happened. A visitor gets the password form (or
// the password recovery, or the step that takes the code of the email just sent); someone with an
// authenticator app, the code step before the session counts (after the password, an emailed code,
// or after an emailed link brought them back); someone already signed in, who they are.
import { useEffect, useReducer } from "react";
import { appCodeSignIn, signedInNotices } from "../../content/sign-in.ts";
import { AppCodeStep } from "../../forms/code-form.tsx";
import { RecoverForm } from "../../forms/recover-form.tsx";
import { SentEmailStep } from "../../forms/sent-email-step.tsx";
import { SignInForm } from "../../forms/sign-in-form.tsx";
import { hasSessionToResume } from "../../lib/account-signals.ts";
import { owedFactorId, passwordResetHref, returnPath } from "../../lib/account.ts";
import { useSessionWatch } from "../../lib/session-watch.ts";
import { getSupabase } from "../../lib/supabase.ts";
import { flashToast, type ToastInput } from "../../lib/toast.ts";
import { SignedInCard } from "./signed-in-card.tsx";
import { firstStep, signInStep, type SignInEvent } from "./sign-in-steps.ts";

/** Where the session stands: the app's code it still owes, who is signed in, or nobody. */
async function readSession(): Promise<Extract<SignInEvent, { type: "session" }>> {
  const supabase = await getSupabase();
  const { data } = await supabase.auth.getSession();
  if (!data.session) return { type: "session", factorId: null, user: null };
  return { type: "session", factorId: await owedFactorId(supabase), user: data.session.user };
}

/** Goes on to the page that sent the visitor here (`?next=`), saying `welcome` there. */
function goOn(welcome?: ToastInput) {
  if (welcome) flashToast(welcome);
  window.location.assign(returnPath(window.location.search));
}

export function SignInPanel() {
  const [step, dispatch] = useReducer(signInStep, firstStep);

  useEffect(() => {
    if (!hasSessionToResume()) return;
    void readSession().then((session) => {
      // Signed in (by an emailed link, or earlier) on the way to another page (`?next=/team`):
      // go on there.
      const signedIn = session.user && !session.factorId;
      if (signedIn && returnPath(window.location.search) !== "/") return goOn();
      dispatch(session);
    });
  }, []);
  // Signed out meanwhile (Logout in another tab, the session ended on another device): the form,
  // who was signed in dropped. This page makes no data request to be refused.
  useSessionWatch({
    active: step.view === "app-code" || step.view === "signed-in",
    signedOut: () => dispatch({ type: "signed-out" }),
    recheck: () => {},
  });

  /** After a sign-in: the app's code when the session owes it, else on to the next page. */
  const signedIn = async (welcome?: ToastInput) => {
    const session = await readSession();
    if (session.factorId) return dispatch(session);
    goOn(welcome);
  };
  const back = (email: string) => dispatch({ type: "back", email });

  switch (step.view) {
    case "sign-in":
      return (
        <SignInForm
          email={step.email}
          takeFocus={step.takeFocus}
          onSignedIn={() => signedIn()}
          onForgotPassword={(email) => dispatch({ type: "forgot-password", email })}
          onEmailSent={(sent, email) => dispatch({ type: "email-sent", sent, email })}
        />
      );
    case "recover":
      return (
        <RecoverForm
          email={step.email}
          onSent={(email) => dispatch({ type: "email-sent", sent: "recovery", email })}
          onBack={back}
        />
      );
    case "email-code":
      return (
        <SentEmailStep
          key={step.sent}
          sent={step.sent}
          email={step.email}
          onVerified={async () => {
            // The recovery session sets the new password on the page the link opens.
            if (step.sent === "recovery") return window.location.assign(passwordResetHref());
            await signedIn(
              step.sent === "confirmation" ? signedInNotices.emailConfirmed : undefined,
            );
          }}
          onBack={() => back(step.email)}
        />
      );
    case "app-code":
      return (
        <AppCodeStep
          factorId={step.factorId}
          description={appCodeSignIn.description}
          submitLabel={appCodeSignIn.submit}
          onVerified={() => goOn(signedInNotices.welcomeBack)}
          cancel={{
            label: appCodeSignIn.otherAccount,
            onClick: async () => {
              await (await getSupabase()).auth.signOut({ scope: "local" });
              dispatch({ type: "signed-out" });
            },
          }}
        />
      );
    case "signed-in":
      return <SignedInCard user={step.user} />;
  }
}
