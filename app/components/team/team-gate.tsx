// What the workspace shows before its data: the sign-in prompt, "not on the team", the code step
// (or the security key's) of a member whose session is aal1 (or a recovery code in its place), and the authenticator-app
// set-up of a member without one (its first code raises the session to aal2, and its recovery
// codes are shown once before the workspace opens). None of these asks the server for team data.
import type * as React from "react";
import { useEffect, useRef, useState } from "react";
import { AppCodeForm, AppCodeStep, RecoveryCodeStep } from "../../forms/code-form.tsx";
import { SecurityKeyStep } from "../../forms/security-key-step.tsx";
import { securityKeyStep } from "../../content/passkeys.ts";
import { enrolTotp, type TotpEnrolment } from "../../lib/account.ts";
import { makeRecoveryCodes, type NewRecoveryCodes } from "../../lib/recovery-codes.ts";
import { errorToast } from "../../lib/toast.ts";
import { useBusyAction } from "../../lib/use-busy-action.ts";
import { RecoveryCodesShown } from "../account/recovery-codes-shown.tsx";
import { TotpSetupKey } from "../account/totp-setup-key.tsx";
import { SignInPrompt } from "../account/sign-in-prompt.tsx";
import { SiteAndLogout } from "../account/site-and-logout.tsx";
import { Button } from "../ui/button.tsx";
import { RegionCard } from "../ui/region-card.tsx";
import { Address } from "../ui/address.tsx";

/** A step of the gate: it replaces the one before, so its heading takes the focus. */
function Step({ title, children }: { title: string; children: React.ReactNode }) {
  return (
    <RegionCard title={title} takeFocus className="max-w-2xl">
      {children}
    </RegionCard>
  );
}

const text = "text-sm leading-6 text-slate-700";

export function TeamSignIn({ takeFocus = false }: { takeFocus?: boolean }) {
  return (
    <SignInPrompt title="Sign in to the team workspace" path="/team" takeFocus={takeFocus}>
      This workspace is for the Revwise team: the people who follow up leads, run the newsletter and
      connect the CRM. Sign in with your team account to continue.
    </SignInPrompt>
  );
}

export function NotOnTheTeam({ email }: { email: string }) {
  return (
    <Step title="You're not on the team">
      <p className={text}>
        You're signed in as <Address>{email}</Address>, which isn't a member of the Revwise team, so
        the workspace isn't available to you. If you should have access, ask a team admin to add
        this address.
      </p>
      <div className="flex flex-wrap gap-3">
        <SiteAndLogout />
      </div>
    </Step>
  );
}

export function CodeStep({
  factorId,
  securityKey,
  onDone,
}: {
  factorId: string;
  /** The member's second step is a security key (or a passkey as one), not an app's code. */
  securityKey: boolean;
  onDone: () => void;
}) {
  const [recoveryCode, setRecoveryCode] = useState(false);
  const submitLabel = "Verify and open the workspace";
  if (recoveryCode)
    return (
      <RecoveryCodeStep
        region
        className="max-w-2xl"
        submitLabel={submitLabel}
        onVerified={onDone}
        onUseApp={() => setRecoveryCode(false)}
        useAppLabel={securityKey ? securityKeyStep.useKey : undefined}
      />
    );
  if (securityKey)
    return (
      <SecurityKeyStep
        region
        className="max-w-2xl"
        factorId={factorId}
        description={securityKeyStep.teamDescription}
        onVerified={onDone}
        onUseRecoveryCode={() => setRecoveryCode(true)}
      />
    );
  return (
    <AppCodeStep
      region
      className="max-w-2xl"
      factorId={factorId}
      description="The workspace holds personal data, so it asks for the 6-digit code your authenticator app shows for Revwise."
      submitLabel={submitLabel}
      onVerified={onDone}
      onUseRecoveryCode={() => setRecoveryCode(true)}
    />
  );
}

export function EnrolStep({ onDone }: { onDone: () => void }) {
  const [enrolment, setEnrolment] = useState<TotpEnrolment | null>(null);
  const [codes, setCodes] = useState<NewRecoveryCodes | null>(null);
  const [busy, run] = useBusyAction();
  // The set-up replaces the button pressed: the focus goes to it (announced, and the keyboard
  // continues there) instead of falling back to the page.
  const setUp = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (enrolment) setUp.current?.focus();
  }, [enrolment]);
  const start = () => run(async () => setEnrolment(await enrolTotp("Authenticator app")));
  /** The app is on: its recovery codes, shown once, before the workspace. */
  const turnedOn = async () => {
    try {
      setCodes(await makeRecoveryCodes());
    } catch (error) {
      // Made later on the account page.
      errorToast(error instanceof Error ? error : String(error));
      onDone();
    }
  };
  if (codes)
    return (
      <Step title="Set up two-step verification">
        <RecoveryCodesShown made={codes} onSaved={onDone} />
      </Step>
    );
  return (
    <Step title="Set up two-step verification">
      <p className={text}>
        The workspace holds personal data, so every team member signs in with a second step: a
        6-digit code from an authenticator app on your phone, such as 1Password, Google
        Authenticator or Microsoft Authenticator. Set it up once; the workspace opens right after.
      </p>
      {enrolment ? (
        <div ref={setUp} tabIndex={-1} className="grid gap-5 outline-none">
          <TotpSetupKey qrCode={enrolment.qrCode} secret={enrolment.secret} />
          <AppCodeForm
            name="Turn on two-step verification"
            factorId={enrolment.factorId}
            submitLabel="Verify and turn on"
            onVerified={turnedOn}
          />
        </div>
      ) : (
        <Button
          type="button"
          className="justify-self-start"
          aria-disabled={busy}
          aria-busy={busy}
          onClick={() => void start()}
        >
          Set up an authenticator app
        </Button>
      )}
    </Step>
  );
}
