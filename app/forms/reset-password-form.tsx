// The page the recovery email's link opens (/auth/reset-password): supabase-js reads the recovery
// session from the URL, then the visitor chooses a new password. Without a session (or without
// JavaScript) it explains where the link comes from.
import { zodResolver } from "@hookform/resolvers/zod";
import { useEffect, useState } from "react";
import { useForm } from "react-hook-form";
import { newPasswordSchema } from "../../common/accounts.ts";
import { Button } from "../components/ui/button.tsx";
import { Icon } from "../components/ui/icon.tsx";
import { emailLinkResult, hasSessionToResume } from "../lib/account-signals.ts";
import { ScriptForm } from "./script-form.tsx";
import { getSupabase } from "../lib/supabase.ts";
import { errorToast, flashToast } from "../lib/toast.ts";
import { NewPasswordFields, type NewPasswordValues } from "./new-password-fields.tsx";

type State = "instructions" | "ready";

export function ResetPasswordForm() {
  const [state, setState] = useState<State>("instructions");
  const form = useForm<NewPasswordValues>({
    resolver: zodResolver(newPasswordSchema),
    defaultValues: { password: "", confirm: "" },
  });

  useEffect(() => {
    // A failed link is reported by the header's account island; this form stays on its instructions.
    if (emailLinkResult().error || !hasSessionToResume()) return;
    let unsubscribe = () => {};
    void getSupabase().then((supabase) => {
      const { data } = supabase.auth.onAuthStateChange((_event, session) =>
        setState(session ? "ready" : "instructions"),
      );
      unsubscribe = () => data.subscription.unsubscribe();
    });
    return () => unsubscribe();
  }, []);

  const onSubmit = form.handleSubmit(async ({ password }) => {
    const supabase = await getSupabase();
    const { error } = await supabase.auth.updateUser({ password });
    if (error) return errorToast(error.message);
    flashToast({
      title: "Password updated",
      description: "You're signed in with your new password.",
    });
    window.location.assign("/");
  });

  if (state !== "ready") {
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
      <Button type="submit" size="lg" disabled={isSubmitting}>
        {isSubmitting ? "Saving..." : "Save new password"}
      </Button>
    </ScriptForm>
  );
}
