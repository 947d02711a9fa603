// The step of a session that owes its security key (a WebAuthn factor) in place of an
// authenticator app's code: one button starts the browser's prompt; a right answer raises the
// session to aal2, a refused or closed prompt says so under the button. Like the code steps
// (code-form.tsx) it replaces the view before it and its heading takes the focus; `region` makes
// it a card that is a landmark of its own.
import type * as React from "react";
import { useId, useState } from "react";
import { Button } from "../components/ui/button.tsx";
import { RegionCard, StepHeading } from "../components/ui/region-card.tsx";
import { securityKeyStep as copy } from "../content/passkeys.ts";
import { recoveryCodeStep } from "../content/two-step.ts";
import { cn } from "../lib/cn.ts";
import { useBusyAction } from "../lib/use-busy-action.ts";
import { answerWithSecurityKey } from "../lib/webauthn.ts";

type Way = { label: string; onClick: () => void };

export function SecurityKeyStep({
  factorId,
  onVerified,
  description = copy.description,
  onUseRecoveryCode,
  cancel,
  region = false,
  className,
}: {
  factorId: string;
  /** After the session was raised; may navigate away. */
  onVerified: () => Promise<void> | void;
  description?: string;
  /** Shows the recovery code's step in place of this one. */
  onUseRecoveryCode?: () => void;
  /** A way back, under the button. */
  cancel?: Way;
  region?: boolean;
  className?: string;
}) {
  const descriptionId = useId();
  const [busy, run] = useBusyAction();
  const [failed, setFailed] = useState(false);
  const answer = () =>
    run(async () => {
      setFailed(false);
      const outcome = await answerWithSecurityKey(factorId);
      if (outcome.ok) await onVerified();
      else setFailed(true);
    });
  const body: React.ReactNode = (
    <div className="grid gap-3">
      <Button type="button" aria-disabled={busy} onClick={() => void answer()}>
        {copy.button}
      </Button>
      <p role="alert" className="text-sm text-destructive">
        {failed ? copy.failed : ""}
      </p>
      {onUseRecoveryCode && (
        <Button type="button" variant="link" onClick={onUseRecoveryCode}>
          {recoveryCodeStep.use}
        </Button>
      )}
      {cancel && (
        <Button type="button" variant="ghost" onClick={cancel.onClick}>
          {cancel.label}
        </Button>
      )}
    </div>
  );
  if (region)
    return (
      <RegionCard title={copy.title} takeFocus className={className}>
        <p id={descriptionId} className="text-sm leading-6 text-slate-700">
          {description}
        </p>
        {body}
      </RegionCard>
    );
  return (
    <div className={cn("grid gap-5", className)}>
      <StepHeading
        title={copy.title}
        description={description}
        descriptionId={descriptionId}
        takeFocus
      />
      {body}
    </div>
  );
}
