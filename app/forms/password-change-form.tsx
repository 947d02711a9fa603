// The account page's password change. The current password goes with the new one
// (`current_password`: the server refuses a new password without it, decision 0045). An account
// without a password leaves it empty, and a session signed in more than a day ago may be asked to
// confirm it is the account's owner anyway: the server answers `reauthentication_needed`, we have
// it email a code (supabase.auth.reauthenticate) and send the new password again with that code as
// the nonce. A code asked for again within the minute is refused (GoTrue's 429); the one already
// sent still works, so the code step shows anyway and says when a new one can be asked for.
import { zodResolver } from "@hookform/resolvers/zod";
import { useEffect, useRef, useState } from "react";
import { useForm } from "react-hook-form";
import { passwordChangeSchema } from "../../common/accounts.ts";
import { passwordChange as copy } from "../content/account-security.ts";
import { Button } from "../components/ui/button.tsx";
import { ScriptForm } from "./script-form.tsx";
import { readableMessage, retryAfterSeconds, sentTooRecently, waitWords } from "../lib/errors.ts";
import { getSupabase } from "../lib/supabase.ts";
import { errorToast, toast } from "../lib/toast.ts";
import { CodeForm } from "./code-form.tsx";
import { CurrentPasswordField } from "./form-fields.tsx";
import { NewPasswordFields, type NewPasswordValues } from "./new-password-fields.tsx";

type PasswordChangeValues = NewPasswordValues & { current: string };

const changed = () => toast(copy.changed);

/** The new password, and the current one when it was given. */
const attributes = (password: string, current: string) => ({
  password,
  ...(current ? { current_password: current } : {}),
});

/**
 * The code step: the new password (and the current one) kept while the code is awaited, and
 * whether it was just sent.
 */
type Pending = { password: string; current: string; waitSeconds: number | null };

/** Where the focus goes when the code step gives way to the form again. */
type Return = "saved" | "cancelled" | null;

export function PasswordChangeForm({ email }: { email: string }) {
  const [pending, setPending] = useState<Pending | null>(null);
  const form = useForm<PasswordChangeValues>({
    resolver: zodResolver(passwordChangeSchema),
    defaultValues: { current: "", password: "", confirm: "" },
  });

  // The code step replaces the form; when it gives way, the focus would fall to the page's body.
  // Saved: the form's first field (the toast says it is done). Cancelled: the button that opened
  // the step.
  const returnTo = useRef<Return>(null);
  const submit = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    if (pending !== null) return;
    if (returnTo.current === "saved") form.setFocus("current");
    if (returnTo.current === "cancelled") submit.current?.focus();
    returnTo.current = null;
  }, [pending, form]);

  const onSubmit = form.handleSubmit(async (values) => {
    const supabase = await getSupabase();
    const { error } = await supabase.auth.updateUser(attributes(values.password, values.current));
    if (error?.code === "current_password_required")
      return form.setError("current", { message: copy.current.missing }, { shouldFocus: true });
    if (error?.code === "current_password_mismatch")
      return form.setError("current", { message: copy.current.wrong }, { shouldFocus: true });
    if (error?.code === "reauthentication_needed") {
      const sent = await supabase.auth.reauthenticate();
      if (sent.error && !sentTooRecently(sent.error)) return errorToast(sent.error);
      setPending({
        password: values.password,
        current: values.current,
        waitSeconds: sent.error ? retryAfterSeconds(sent.error) : null,
      });
      return;
    }
    if (error) return errorToast(error);
    form.reset();
    changed();
  });

  if (pending !== null) {
    return (
      <div className="grid gap-4">
        <p className="text-sm leading-6 text-slate-700" role="status">
          {pending.waitSeconds === null ? (
            <>
              To confirm it's you, we've emailed a 6-digit code to{" "}
              <strong className="font-semibold break-all text-ink">{email}</strong>. Enter it to
              save your new password.
            </>
          ) : (
            <>
              To confirm it's you, enter the 6-digit code we emailed to{" "}
              <strong className="font-semibold break-all text-ink">{email}</strong> a moment ago: it
              still works. You can ask for a new one in {waitWords(pending.waitSeconds)}.
            </>
          )}
        </p>
        <CodeForm
          name="Confirm your password change"
          label="Code from your email"
          autoFocus
          submitLabel="Save new password"
          onCode={async (nonce) => {
            const supabase = await getSupabase();
            const { error } = await supabase.auth.updateUser({
              ...attributes(pending.password, pending.current),
              nonce,
            });
            if (error) return readableMessage(error);
            returnTo.current = "saved";
            setPending(null);
            form.reset();
            changed();
            return null;
          }}
          cancel={{
            label: "Cancel",
            onClick: () => {
              returnTo.current = "cancelled";
              setPending(null);
            },
          }}
        />
      </div>
    );
  }

  const { isSubmitting } = form.formState;
  return (
    <ScriptForm onSubmit={onSubmit} label="Change your password" className="grid gap-4">
      {/* Lets password managers file the new password under the right account. */}
      <input type="email" name="username" autoComplete="username" value={email} readOnly hidden />
      <CurrentPasswordField form={form} name="current" copy={copy.current} />
      <NewPasswordFields form={form} />
      <Button
        ref={submit}
        type="submit"
        variant="outline"
        aria-disabled={isSubmitting}
        className="justify-self-start"
      >
        {isSubmitting ? copy.saving : copy.submit}
      </Button>
    </ScriptForm>
  );
}
