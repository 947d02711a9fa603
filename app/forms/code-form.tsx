// A six-digit code: from an authenticator app (second step of a sign-in, turning the app on,
// removing it) or from an email (confirming a password change). The caller checks the code and
// answers with what went wrong, which shows under the field.
import { zodResolver } from "@hookform/resolvers/zod";
import type * as React from "react";
import { useForm } from "react-hook-form";
import { sixDigitCodeSchema } from "../../common/accounts.ts";
import { Button } from "../components/ui/button.tsx";
import { Field } from "../components/ui/field.tsx";
import { Input } from "../components/ui/input.tsx";
import { verifyTotpCode } from "../lib/account.ts";
import { ScriptForm } from "./script-form.tsx";

export function CodeForm({
  name,
  label,
  submitLabel,
  onCode,
  autoFocus = false,
  cancel,
}: {
  /** The form's accessible name. */
  name: string;
  label: string;
  submitLabel: string;
  /** Checks the code: null when it worked, else the message to show. */
  onCode: (code: string) => Promise<string | null>;
  autoFocus?: boolean;
  /** A way back, under the submit button. */
  cancel?: { label: string; onClick: () => void };
}) {
  const form = useForm<{ code: string }>({
    resolver: zodResolver(sixDigitCodeSchema),
    defaultValues: { code: "" },
  });
  const onSubmit = form.handleSubmit(async ({ code }) => {
    const problem = await onCode(code);
    if (problem) form.setError("code", { message: problem }, { shouldFocus: true });
  });
  const { errors, isSubmitting } = form.formState;
  return (
    <ScriptForm onSubmit={onSubmit} label={name} className="grid gap-4">
      <Field label={label} error={errors.code?.message}>
        {(p) => (
          <Input
            {...p}
            {...form.register("code")}
            // A one-time code field: digits keyboard, the phone's code suggestion, no spell check.
            inputMode="numeric"
            autoComplete="one-time-code"
            pattern="[0-9]*"
            maxLength={6}
            spellCheck={false}
            autoFocus={autoFocus}
            className="font-mono text-lg tracking-[0.3em] sm:text-lg"
          />
        )}
      </Field>
      <Button type="submit" aria-disabled={isSubmitting} aria-busy={isSubmitting}>
        {isSubmitting ? "Checking..." : submitLabel}
      </Button>
      {cancel && (
        <Button type="button" variant="ghost" onClick={cancel.onClick}>
          {cancel.label}
        </Button>
      )}
    </ScriptForm>
  );
}

/** A code from the authenticator app of this factor: a right one raises the session to aal2. */
export function AppCodeForm({
  factorId,
  onVerified,
  ...props
}: Omit<React.ComponentProps<typeof CodeForm>, "onCode" | "label"> & {
  factorId: string;
  /** After the session was raised; may navigate away. */
  onVerified: () => Promise<void> | void;
}) {
  return (
    <CodeForm
      {...props}
      label="6-digit code from your app"
      onCode={async (code) => {
        const problem = await verifyTotpCode(factorId, code);
        if (problem) return problem;
        await onVerified();
        return null;
      }}
    />
  );
}
