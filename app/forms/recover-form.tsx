// The sign-in page's request for a password reset: the email of the account, and a link (with a
// code beside it) sent there to choose a new password. Its heading takes the focus when it
// replaces the password form, so it is announced and the keyboard starts there.
import { useRef } from "react";
import { Button } from "../components/ui/button.tsx";
import { StepHeading } from "../components/ui/region-card.tsx";
import { passwordRecovery as copy } from "../content/sign-in.ts";
import { passwordResetHref } from "../lib/account.ts";
import { getSupabase } from "../lib/supabase.ts";
import { errorToast, toast } from "../lib/toast.ts";
import { useBusyAction } from "../lib/use-busy-action.ts";
import { ScriptForm } from "./script-form.tsx";
import { SignInEmailField, typedEmail } from "./sign-in-email-field.tsx";

export function RecoverForm({
  email: typedBefore,
  onSent,
  onBack,
}: {
  /** The address typed in the password form. */
  email: string;
  /** The recovery email went out to `email`. */
  onSent: (email: string) => void;
  /** Back to the password form, with the address typed here. */
  onBack: (email: string) => void;
}) {
  const [busy, run] = useBusyAction();
  const formRef = useRef<HTMLFormElement>(null);

  const recover = () =>
    run(async () => {
      const email = typedEmail(formRef.current);
      const supabase = await getSupabase();
      const { error } = await supabase.auth.resetPasswordForEmail(email, {
        redirectTo: `${window.location.origin}${passwordResetHref()}`,
      });
      if (error) return errorToast(error);
      toast(copy.sent);
      onSent(email.trim());
    });

  return (
    <ScriptForm
      ref={formRef}
      label={copy.title}
      className="grid gap-4"
      onSubmit={(e) => {
        e.preventDefault();
        void recover();
      }}
    >
      <StepHeading title={copy.title} description={copy.description} takeFocus />
      <SignInEmailField defaultValue={typedBefore} />
      <Button type="submit" size="lg" aria-disabled={busy} aria-busy={busy}>
        {copy.submit}
      </Button>
      <Button
        type="button"
        variant="ghost"
        onClick={() => onBack(typedEmail(formRef.current))}
        aria-disabled={busy}
      >
        {copy.back}
      </Button>
    </ScriptForm>
  );
}
