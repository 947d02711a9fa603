// The sign-in page's island: one step machine (sign-in-steps.ts) decides which view shows, and
// each view is a plain component that reports what happened. A visitor gets the password form (or
// the password recovery, or the step that takes the code of the email just sent; a passkey signs
// in from the form); someone with an authenticator app (or a security key), the code step (or the
// key's) before the session counts (after the password, an emailed code,
// or after an emailed link brought them back), or a recovery code in its place; someone already
// signed in, who they are.
import { useEffect, useReducer } from "react";
import { appCodeSignIn, signedInNotices } from "../../content/sign-in.ts";
import { signedInWithRecoveryCode } from "../../content/two-step.ts";
import { AppCodeStep, RecoveryCodeStep } from "../../forms/code-form.tsx";
import { RecoverForm } from "../../forms/recover-form.tsx";
import { SentEmailStep } from "../../forms/sent-email-step.tsx";
import { SignInForm } from "../../forms/sign-in-form.tsx";
import { hasSessionToResume } from "../../lib/account-signals.ts";
import { owedSecondFactor, passwordResetHref, returnPath } from "../../lib/account.ts";
import { SecurityKeyStep } from "../../forms/security-key-step.tsx";
import { securityKeyStep } from "../../content/passkeys.ts";
import { useSessionWatch } from "../../lib/session-watch.ts";
import { recoveryCodesLeft } from "../../lib/recovery-codes.ts";
import { getSupabase } from "../../lib/supabase.ts";
import { flashToast, type ToastInput } from "../../lib/toast.ts";
import { SignedInCard } from "./signed-in-card.tsx";
import { firstStep, signInStep, type SignInEvent } from "./sign-in-steps.ts";

/** Where the session stands: the app's code it still owes, who is signed in, or nobody. */
async function readSession(): Promise<Extract<SignInEvent, { type: "session" }>> {
  const supabase = await getSupabase();
  const { data } = await supabase.auth.getSession();
  if (!data.session) return { type: "session", factorId: null, user: null };
  const owed = await owedSecondFactor(supabase);
  return {
    type: "session",
    factorId: owed?.id ?? null,
    securityKey: owed?.securityKey ?? false,
    user: data.session.user,
  };
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
    active: step.view === "app-code" || step.view === "recovery-code" || step.view === "signed-in",
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
  /** Leaves a sign-in that owes its second step, for the empty form. */
  const otherAccount = {
    label: appCodeSignIn.otherAccount,
    onClick: async () => {
      await (await getSupabase()).auth.signOut({ scope: "local" });
      dispatch({ type: "signed-out" });
    },
  };

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
      if (step.securityKey)
        return (
          <SecurityKeyStep
            factorId={step.factorId}
            onVerified={() => goOn(signedInNotices.welcomeBack)}
            onUseRecoveryCode={() => dispatch({ type: "use-recovery-code" })}
            cancel={otherAccount}
          />
        );
      return (
        <AppCodeStep
          factorId={step.factorId}
          description={appCodeSignIn.description}
          submitLabel={appCodeSignIn.submit}
          onVerified={() => goOn(signedInNotices.welcomeBack)}
          onUseRecoveryCode={() => dispatch({ type: "use-recovery-code" })}
          cancel={otherAccount}
        />
      );
    case "recovery-code":
      return (
        <RecoveryCodeStep
          submitLabel={appCodeSignIn.submit}
          onVerified={async () => {
            // How many are left, said on the next page (unsaid when that cannot be read).
            const left = await recoveryCodesLeft().catch(() => null);
            goOn(left ? signedInWithRecoveryCode(left.remaining) : signedInNotices.welcomeBack);
          }}
          onUseApp={() => dispatch({ type: "use-app-code" })}
          useAppLabel={step.securityKey ? securityKeyStep.useKey : undefined}
          cancel={otherAccount}
        />
      );
    case "signed-in":
      return <SignedInCard user={step.user} />;
  }
}
