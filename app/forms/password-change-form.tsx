// The account page's password change. A session signed in more than a day ago must confirm it is
// the account's owner: the server answers `reauthentication_needed`, we have it email a code
// (supabase.auth.reauthenticate) and send the new password again with that code as the nonce.
// A code asked for again within the minute is refused (GoTrue's 429); the one already sent still
// works, so the code step shows anyway and says when a new one can be asked for.
import { zodResolver } from "@hookform/resolvers/zod";
import { useEffect, useRef, useState } from "react";
import { useForm } from "react-hook-form";
import { newPasswordSchema } from "../../common/accounts.ts";
import { Button } from "../components/ui/button.tsx";
import { ScriptForm } from "./script-form.tsx";
import { readableMessage, retryAfterSeconds, sentTooRecently, waitWords } from "../lib/errors.ts";
import { getSupabase } from "../lib/supabase.ts";
import { errorToast, toast } from "../lib/toast.ts";
import { CodeForm } from "./code-form.tsx";
import { NewPasswordFields, type NewPasswordValues } from "./new-password-fields.tsx";

const changed = () =>
  toast({ title: "Password changed", description: "Use your new password next time you sign in." });

/** The code step: the new password kept while the code is awaited, and whether it was just sent. */
type Pending = { password: string; waitSeconds: number | null };

/** Where the focus goes when the code step gives way to the form again. */
type Return = "saved" | "cancelled" | null;

export function PasswordChangeForm({ email }: { email: string }) {
  const [pending, setPending] = useState<Pending | null>(null);
  const form = useForm<NewPasswordValues>({
    resolver: zodResolver(newPasswordSchema),
    defaultValues: { password: "", confirm: "" },
  });

  // The code step replaces the form; when it gives way, the focus would fall to the page's body.
  // Saved: the form's first field (the toast says it is done). Cancelled: the button that opened
  // the step.
  const returnTo = useRef<Return>(null);
  const submit = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    if (pending !== null) return;
    if (returnTo.current === "saved") form.setFocus("password");
    if (returnTo.current === "cancelled") submit.current?.focus();
    returnTo.current = null;
  }, [pending, form]);

  const onSubmit = form.handleSubmit(async (values) => {
    const supabase = await getSupabase();
    const { error } = await supabase.auth.updateUser({ password: values.password });
    if (error?.code === "reauthentication_needed") {
      const sent = await supabase.auth.reauthenticate();
      if (sent.error && !sentTooRecently(sent.error)) return errorToast(sent.error);
      setPending({
        password: values.password,
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
              password: pending.password,
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
      <NewPasswordFields form={form} />
      <Button
        ref={submit}
        type="submit"
        variant="outline"
        aria-disabled={isSubmitting}
        className="justify-self-start"
      >
        {isSubmitting ? "Saving..." : "Change password"}
      </Button>
    </ScriptForm>
  );
}
