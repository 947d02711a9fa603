// The account page's password change. A session signed in more than a day ago must confirm it is
// the account's owner: the server answers `reauthentication_needed`, we have it email a code
// (supabase.auth.reauthenticate) and send the new password again with that code as the nonce.
import { zodResolver } from "@hookform/resolvers/zod";
import { useState } from "react";
import { useForm } from "react-hook-form";
import { newPasswordSchema } from "../../common/accounts.ts";
import { Button } from "../components/ui/button.tsx";
import { ScriptForm } from "./script-form.tsx";
import { readableMessage } from "../lib/errors.ts";
import { getSupabase } from "../lib/supabase.ts";
import { errorToast, toast } from "../lib/toast.ts";
import { CodeForm } from "./code-form.tsx";
import { NewPasswordFields, type NewPasswordValues } from "./new-password-fields.tsx";

const changed = () =>
  toast({ title: "Password changed", description: "Use your new password next time you sign in." });

export function PasswordChangeForm({ email }: { email: string }) {
  /** The new password, kept while the emailed code is awaited. */
  const [pending, setPending] = useState<string | null>(null);
  const form = useForm<NewPasswordValues>({
    resolver: zodResolver(newPasswordSchema),
    defaultValues: { password: "", confirm: "" },
  });

  const onSubmit = form.handleSubmit(async (values) => {
    const supabase = await getSupabase();
    const { error } = await supabase.auth.updateUser({ password: values.password });
    if (error?.code === "reauthentication_needed") {
      const sent = await supabase.auth.reauthenticate();
      if (sent.error) return errorToast(sent.error.message);
      setPending(values.password);
      return;
    }
    if (error) return errorToast(error.message);
    form.reset();
    changed();
  });

  if (pending !== null) {
    return (
      <div className="grid gap-4">
        <p className="text-sm leading-6 text-slate-700" role="status">
          To confirm it's you, we've emailed a 6-digit code to{" "}
          <strong className="font-semibold break-all text-ink">{email}</strong>. Enter it to save
          your new password.
        </p>
        <CodeForm
          name="Confirm your password change"
          label="Code from your email"
          autoFocus
          submitLabel="Save new password"
          onCode={async (nonce) => {
            const supabase = await getSupabase();
            const { error } = await supabase.auth.updateUser({
              password: pending,
              nonce,
            });
            if (error) return readableMessage(error.message);
            setPending(null);
            form.reset();
            changed();
            return null;
          }}
          cancel={{ label: "Cancel", onClick: () => setPending(null) }}
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
