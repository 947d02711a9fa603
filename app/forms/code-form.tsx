// A six-digit code: from an authenticator app (second step of a sign-in, turning the app on,
// removing it) or from an email (confirming a password change). The caller checks the code and
// answers with what went wrong, which shows under the field. The app's code step of a session that
// owes it (AppCodeStep) is the same on every page that asks for it.
import { zodResolver } from "@hookform/resolvers/zod";
import type * as React from "react";
import { useForm } from "react-hook-form";
import { sixDigitCodeSchema } from "../../common/accounts.ts";
import { Button } from "../components/ui/button.tsx";
import { Field } from "../components/ui/field.tsx";
import { Input } from "../components/ui/input.tsx";
import { RegionCard, StepHeading } from "../components/ui/region-card.tsx";
import { verifyTotpCode } from "../lib/account.ts";
import { cn } from "../lib/cn.ts";
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

const CODE_STEP_TITLE = "Enter your verification code";

/**
 * The step of a session that owes its authenticator app's code (after a password, an emailed link
 * or a recovery link): why, then the code form. It replaces the view before it, so its heading
 * takes the focus (announced, and the code field is the next stop of the keyboard). `region` makes
 * it a card that is a landmark of its own, for a page where it stands alone.
 */
export function AppCodeStep({
  description,
  region = false,
  className,
  ...form
}: Omit<React.ComponentProps<typeof AppCodeForm>, "name" | "autoFocus"> & {
  description: React.ReactNode;
  region?: boolean;
  className?: string;
}) {
  const codeForm = <AppCodeForm name="Verification code" {...form} />;
  if (region)
    return (
      <RegionCard title={CODE_STEP_TITLE} takeFocus className={className}>
        <p className="text-sm leading-6 text-slate-700">{description}</p>
        {codeForm}
      </RegionCard>
    );
  return (
    <div className={cn("grid gap-5", className)}>
      <StepHeading title={CODE_STEP_TITLE} description={description} takeFocus />
      {codeForm}
    </div>
  );
}
