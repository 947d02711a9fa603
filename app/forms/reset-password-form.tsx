// The page the recovery email's link opens (/auth/reset-password): supabase-js reads the recovery
// session from the URL, then the visitor chooses a new password. Without a session (or without
// JavaScript) it explains where the link comes from. The recovery session is aal1: someone with an
// authenticator app enters its code first, someone with only a security key answers with it (or,
// without either, a recovery code), since the server changes the password of such an account only
// for an aal2 session.
import { zodResolver } from "@hookform/resolvers/zod";
import { useEffect, useState } from "react";
import { useForm } from "react-hook-form";
import { newPasswordSchema } from "../../common/accounts.ts";
import { Button } from "../components/ui/button.tsx";
import { Icon } from "../components/ui/icon.tsx";
import { owedSecondFactor, returnPath } from "../lib/account.ts";
import { emailLinkResult, hasSessionToResume } from "../lib/account-signals.ts";
import { ScriptForm } from "./script-form.tsx";
import { getSupabase } from "../lib/supabase.ts";
import { errorToast, flashToast } from "../lib/toast.ts";
import { AppCodeStep, RecoveryCodeStep } from "./code-form.tsx";
import { SecurityKeyStep } from "./security-key-step.tsx";
import { securityKeyStep } from "../content/passkeys.ts";
import { NewPasswordFields, type NewPasswordValues } from "./new-password-fields.tsx";

type State =
  | { step: "instructions" }
  | { step: "code"; factorId: string; securityKey: boolean; recoveryCode?: boolean }
  | { step: "ready"; afterCode?: boolean };

export function ResetPasswordForm() {
  const [state, setState] = useState<State>({ step: "instructions" });
  const form = useForm<NewPasswordValues>({
    resolver: zodResolver(newPasswordSchema),
    defaultValues: { password: "", confirm: "" },
  });

  useEffect(() => {
    // A failed link is reported by the header's account island; this form stays on its instructions.
    if (emailLinkResult().error || !hasSessionToResume()) return;
    let unsubscribe = () => {};
    void getSupabase().then((supabase) => {
      const { data } = supabase.auth.onAuthStateChange((_event, session) => {
        if (!session) return setState({ step: "instructions" });
        // Read after the callback: supabase-js waits for its listeners before its other calls.
        setTimeout(
          () =>
            void owedSecondFactor(supabase).then((owed) =>
              // A later event (a refresh, the code raised the session) keeps the step where it is
              // (the recovery code's view included).
              setState((now) =>
                owed
                  ? now.step === "code" && now.factorId === owed.id
                    ? now
                    : { step: "code", factorId: owed.id, securityKey: owed.securityKey }
                  : now.step === "ready"
                    ? now
                    : { step: "ready" },
              ),
            ),
        );
      });
      unsubscribe = () => data.subscription.unsubscribe();
    });
    return () => unsubscribe();
  }, []);

  const onSubmit = form.handleSubmit(async ({ password }) => {
    const supabase = await getSupabase();
    const { error } = await supabase.auth.updateUser({ password });
    if (error) return errorToast(error);
    flashToast({
      title: "Password updated",
      description: "You're signed in with your new password.",
    });
    window.location.assign(returnPath(window.location.search));
  });

  // The password form that replaces the code step takes the focus to its first field (the code
  // step, replacing the instructions, takes it to its heading itself).
  const afterCode = state.step === "ready" && state.afterCode;
  useEffect(() => {
    if (afterCode) form.setFocus("password");
  }, [afterCode, form]);

  if (state.step === "code" && state.recoveryCode) {
    const { factorId, securityKey } = state;
    return (
      <RecoveryCodeStep
        className="gap-4"
        submitLabel="Continue"
        onVerified={() => setState({ step: "ready", afterCode: true })}
        onUseApp={() => setState({ step: "code", factorId, securityKey })}
        useAppLabel={securityKey ? securityKeyStep.useKey : undefined}
      />
    );
  }

  if (state.step === "code" && state.securityKey) {
    const { factorId } = state;
    return (
      <SecurityKeyStep
        className="gap-4"
        factorId={factorId}
        description={securityKeyStep.resetDescription}
        onVerified={() => setState({ step: "ready", afterCode: true })}
        onUseRecoveryCode={() =>
          setState({ step: "code", factorId, securityKey: true, recoveryCode: true })
        }
      />
    );
  }

  if (state.step === "code") {
    const { factorId } = state;
    return (
      <AppCodeStep
        className="gap-4"
        factorId={state.factorId}
        description="Your account uses two-step verification. Enter the 6-digit code your authenticator app shows for Revwise, then choose your new password."
        submitLabel="Continue"
        onVerified={() => setState({ step: "ready", afterCode: true })}
        onUseRecoveryCode={() =>
          setState({ step: "code", factorId, securityKey: false, recoveryCode: true })
        }
      />
    );
  }

  if (state.step !== "ready") {
    return (
      <div className="flex gap-4 rounded-xl border border-indigo-100 bg-indigo-50 p-5">
        <span className="grid size-10 shrink-0 place-items-center rounded-lg bg-white text-primary shadow-xs">
          <Icon name="mail" />
        </span>
        <div className="text-sm leading-6 text-slate-700">
          <p className="font-semibold text-ink">Open the link from your recovery email</p>
          <p className="mt-1">
            The password recovery email we sent you contains a link that brings you back to this
            page, where you can choose your new password. If the link has expired or the email
            hasn't arrived, check your spam folder, then request a new one from the sign-in page
            with “Forgot password?”.
          </p>
        </div>
      </div>
    );
  }

  const { isSubmitting } = form.formState;
  return (
    <ScriptForm onSubmit={onSubmit} label="Choose a new password" className="grid gap-4">
      <NewPasswordFields form={form} />
      <Button type="submit" size="lg" aria-disabled={isSubmitting}>
        {isSubmitting ? "Saving..." : "Save new password"}
      </Button>
    </ScriptForm>
  );
}
