// A six-digit code: from an authenticator app (second step of a sign-in, turning the app on,
// removing it) or from an email (confirming a password change; the code an account email carries
// beside its link, which does what the link does); or a recovery code, typed in place of the app's.
// The caller checks the code and answers with what went wrong, which shows under the field. A step
// that asks for a code in place of another view (CodeFormStep) is the same on every page that asks
// for one: the app's (AppCodeStep), a recovery code's (RecoveryCodeStep), which each offer the
// other as one more view when the page says where to go, and an account email's (EmailCodeStep).
import { zodResolver } from "@hookform/resolvers/zod";
import type * as React from "react";
import { useId } from "react";
import { useForm } from "react-hook-form";
import { recoveryCodeSchema, sixDigitCodeSchema } from "../../common/accounts.ts";
import { Button } from "../components/ui/button.tsx";
import { Field } from "../components/ui/field.tsx";
import { Input } from "../components/ui/input.tsx";
import { RegionCard, StepHeading } from "../components/ui/region-card.tsx";
import { recoveryCodeStep } from "../content/two-step.ts";
import { verifyEmailCode, verifyTotpCode, type EmailCodeType } from "../lib/account.ts";
import { cn } from "../lib/cn.ts";
import { verifyRecoveryCode } from "../lib/recovery-codes.ts";
import { ScriptForm } from "./script-form.tsx";

/** A way to another view, as a button under the submit button. */
type Way = { label: string; onClick: () => void };

/**
 * What the field takes: six digits (the digits keyboard, letter-spaced), or a recovery code
 * ("k7m2p-x9d4q": letters and digits, no capitals forced, no spell check).
 */
const FIELDS = {
  digits: {
    schema: sixDigitCodeSchema,
    input: {
      inputMode: "numeric",
      pattern: "[0-9]*",
      maxLength: 6,
      className: "font-mono text-lg tracking-[0.3em] sm:text-lg",
    },
  },
  recovery: {
    schema: recoveryCodeSchema,
    input: {
      inputMode: "text",
      autoCapitalize: "none",
      autoCorrect: "off",
      maxLength: 24,
      className: "font-mono text-lg tracking-wider sm:text-lg",
    },
  },
} as const;

export function CodeForm({
  name,
  label,
  submitLabel,
  onCode,
  kind = "digits",
  autoFocus = false,
  describedBy,
  otherWay,
  cancel,
}: {
  /** The form's accessible name. */
  name: string;
  label: string;
  submitLabel: string;
  /** Checks the code: null when it worked, else the message to show. */
  onCode: (code: string) => Promise<string | null>;
  kind?: keyof typeof FIELDS;
  autoFocus?: boolean;
  /** The id of words about the code (where it was sent), read with the field. */
  describedBy?: string;
  /** Another way to pass this step (a recovery code for the app's), under the submit button. */
  otherWay?: Way;
  /** A way back, under the submit button. */
  cancel?: Way;
}) {
  const field = FIELDS[kind];
  const form = useForm<{ code: string }>({
    resolver: zodResolver(field.schema),
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
            // A one-time code field: the phone's code suggestion, no spell check.
            {...field.input}
            autoComplete="one-time-code"
            spellCheck={false}
            autoFocus={autoFocus}
            aria-describedby={
              [describedBy, p["aria-describedby"]].filter(Boolean).join(" ") || undefined
            }
          />
        )}
      </Field>
      <Button type="submit" aria-disabled={isSubmitting} aria-busy={isSubmitting}>
        {isSubmitting ? "Checking..." : submitLabel}
      </Button>
      {otherWay && (
        <Button type="button" variant="link" onClick={otherWay.onClick}>
          {otherWay.label}
        </Button>
      )}
      {cancel && (
        <Button type="button" variant="ghost" onClick={cancel.onClick}>
          {cancel.label}
        </Button>
      )}
    </ScriptForm>
  );
}

/** Checks a code from the authenticator app of this factor: a right one raises the session to aal2. */
const appCodeCheck =
  (factorId: string, onVerified: () => Promise<void> | void) =>
  async (code: string): Promise<string | null> => {
    const problem = await verifyTotpCode(factorId, code);
    if (problem) return problem;
    await onVerified();
    return null;
  };

const APP_CODE_LABEL = "6-digit code from your app";

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
  return <CodeForm {...props} label={APP_CODE_LABEL} onCode={appCodeCheck(factorId, onVerified)} />;
}

/**
 * A step that asks for a code in place of the view before it: its heading, why, then the code
 * form. It takes the focus, so it is announced and the keyboard starts there: on its heading (the
 * code field is the next stop), or on its field, which is described by the step's words so they
 * are read with it. `region` makes it a card that is a landmark of its own, for a page where it
 * stands alone.
 */
function CodeFormStep({
  title,
  description,
  focus = "heading",
  region = false,
  className,
  ...form
}: Omit<React.ComponentProps<typeof CodeForm>, "autoFocus" | "describedBy"> & {
  title: string;
  description: React.ReactNode;
  focus?: "heading" | "field";
  region?: boolean;
  className?: string;
}) {
  const descriptionId = useId();
  const codeForm = <CodeForm {...form} autoFocus={focus === "field"} describedBy={descriptionId} />;
  if (region)
    return (
      <RegionCard title={title} takeFocus={focus === "heading"} className={className}>
        <p id={descriptionId} className="text-sm leading-6 text-slate-700">
          {description}
        </p>
        {codeForm}
      </RegionCard>
    );
  return (
    <div className={cn("grid gap-5", className)}>
      <StepHeading
        title={title}
        description={description}
        descriptionId={descriptionId}
        takeFocus={focus === "heading"}
      />
      {codeForm}
    </div>
  );
}

/**
 * The step of a session that owes its authenticator app's code (after a password, an emailed link
 * or code, or a recovery link or code); its heading takes the focus.
 */
export function AppCodeStep({
  factorId,
  onVerified,
  title = "Enter your verification code",
  onUseRecoveryCode,
  ...step
}: Omit<
  React.ComponentProps<typeof CodeFormStep>,
  "name" | "label" | "onCode" | "title" | "focus" | "kind" | "otherWay"
> & {
  factorId: string;
  /** After the session was raised; may navigate away. */
  onVerified: () => Promise<void> | void;
  title?: string;
  /** Shows the recovery code's step in place of this one ("Use a recovery code"). */
  onUseRecoveryCode?: () => void;
}) {
  return (
    <CodeFormStep
      {...step}
      title={title}
      name="Verification code"
      label={APP_CODE_LABEL}
      onCode={appCodeCheck(factorId, onVerified)}
      otherWay={
        onUseRecoveryCode ? { label: recoveryCodeStep.use, onClick: onUseRecoveryCode } : undefined
      }
    />
  );
}

/**
 * The step that takes a recovery code in place of the authenticator app's code, wherever that is
 * asked: a right one raises the session to aal2 (used up), a wrong one says so under the field.
 * Its heading takes the focus.
 */
export function RecoveryCodeStep({
  onVerified,
  onUseApp,
  useAppLabel = recoveryCodeStep.useApp,
  ...step
}: Omit<
  React.ComponentProps<typeof CodeFormStep>,
  "name" | "label" | "onCode" | "title" | "focus" | "kind" | "otherWay" | "description"
> & {
  /** After the session was raised; may navigate away. */
  onVerified: () => Promise<void> | void;
  /** Shows the second step (the app's code, or the security key) again in place of this one. */
  onUseApp: () => void;
  /** The words of that way back: the security key's when it is one. */
  useAppLabel?: string;
}) {
  return (
    <CodeFormStep
      {...step}
      title={recoveryCodeStep.title}
      description={recoveryCodeStep.description}
      name={recoveryCodeStep.formName}
      label={recoveryCodeStep.label}
      kind="recovery"
      onCode={async (code) => {
        const problem = await verifyRecoveryCode(code);
        if (problem) return problem;
        await onVerified();
        return null;
      }}
      otherWay={{ label: useAppLabel, onClick: onUseApp }}
    />
  );
}

/** The label of the field for the code an account email carries beside its link. */
const EMAIL_CODE_LABEL = "6-digit code from the email";

/**
 * The step after an account email went out (a sign-in link, a sign-up's confirmation, a password
 * recovery): the email's code does what its link does, for someone who reads the email on another
 * device or whose mail scanner used the link up. Its field takes the focus. A wrong or expired code
 * says so under the field, which stays for the next try.
 */
export function EmailCodeStep({
  email,
  type,
  onVerified,
  ...step
}: Omit<React.ComponentProps<typeof CodeFormStep>, "name" | "label" | "onCode" | "focus"> & {
  /** Where the email went. */
  email: string;
  type: EmailCodeType;
  /** After the code was used (a session is stored); may navigate away. */
  onVerified: () => Promise<void> | void;
}) {
  return (
    <CodeFormStep
      {...step}
      focus="field"
      name="Code from the email"
      label={EMAIL_CODE_LABEL}
      onCode={async (code) => {
        const result = await verifyEmailCode(email, code, type);
        if ("error" in result) return result.error;
        await onVerified();
        return null;
      }}
    />
  );
}
