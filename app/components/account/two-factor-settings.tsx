// Two-step verification on the account page: every second step of the account, verified or not (a
// set-up never confirmed with a code is listed as not finished: someone who once knew the password
// may have started it), each with its removal; setting up an authenticator app (its QR code and
// secret, then its first code turns it on and raises this session to aal2, and the first app's
// recovery codes are shown once); adding a security key (its browser prompt turns it on at once);
// and the recovery codes of an account with a second step. Removing a
// verified app needs an aal2 session: a session below that enters a code from the app, or a
// recovery code, first. An unfinished one goes from any session.
import type { Factor } from "@supabase/supabase-js";
import { useEffect, useRef, useState } from "react";
import { securityKeysSettings as keyWords } from "../../content/passkeys.ts";
import { twoStepSettings as words } from "../../content/two-step.ts";
import { AppCodeForm, AppCodeStep, RecoveryCodeStep } from "../../forms/code-form.tsx";
import { SecurityKeyStep } from "../../forms/security-key-step.tsx";
import { dropUnverifiedFactors, enrolTotp, formatDateTime } from "../../lib/account.ts";
import { makeRecoveryCodes, type NewRecoveryCodes } from "../../lib/recovery-codes.ts";
import { getSupabase } from "../../lib/supabase.ts";
import { errorToast, toast, withErrorToast } from "../../lib/toast.ts";
import { useBusyAction } from "../../lib/use-busy-action.ts";
import { Badge } from "../ui/badge.tsx";
import { Button } from "../ui/button.tsx";
import { RecoveryCodesSettings } from "./recovery-codes-settings.tsx";
import { RecoveryCodesShown } from "./recovery-codes-shown.tsx";
import { SecurityKeyAdd } from "./security-key-add.tsx";
import { TotpSetupKey } from "./totp-setup-key.tsx";

type State =
  | { step: "loading" }
  | { step: "list"; factors: Factor[] }
  | { step: "enrolling"; factorId: string; qrCode: string; secret: string }
  /** The first app's recovery codes, shown once. */
  | { step: "codes"; made: NewRecoveryCodes }
  | { step: "removing"; factors: Factor[]; factor: Factor }
  /** A session below aal2 confirms with a code (the app's, or a recovery code) before removing. */
  | { step: "step-up"; factors: Factor[]; factor: Factor; recoveryCode: boolean };

const text = "text-sm leading-6 text-slate-700";

const isVerified = (factor: Factor) => factor.status === "verified";

const DEFAULT_NAMES: Record<string, string> = {
  phone: words.phoneName,
  webauthn: keyWords.defaultName,
};
const nameOf = (factor: Factor) =>
  factor.friendly_name || (DEFAULT_NAMES[factor.factor_type] ?? words.appName);

async function loadState(): Promise<State> {
  const supabase = await getSupabase();
  const { data, error } = await supabase.auth.mfa.listFactors();
  if (error) throw error;
  return { step: "list", factors: data.all };
}

export function TwoFactorSettings() {
  const [state, setShownState] = useState<State>({ step: "loading" });
  const [busy, run] = useBusyAction();
  useEffect(() => void withErrorToast(async () => setShownState(await loadState())), []);
  // A step the person moved to replaces the button they pressed: the focus goes to the new step
  // (announced, and the keyboard continues there) instead of falling back to the page. The steps
  // with a heading of their own (a code to confirm, the codes shown) give it to their heading.
  const box = useRef<HTMLDivElement>(null);
  const [moves, setMoves] = useState(0);
  const setState = (next: State) => {
    setMoves((n) => n + 1);
    setShownState(next);
  };
  const headingTakesFocus = state.step === "step-up" || state.step === "codes";
  useEffect(() => {
    if (moves > 0 && !headingTakesFocus) box.current?.focus();
  }, [moves, headingTakesFocus]);

  const act = (action: () => Promise<void>) => () => run(action);

  const startEnrolment = act(async () => {
    setState({ step: "enrolling", ...(await enrolTotp(words.appName)) });
  });

  const cancelEnrolment = act(async () => {
    await dropUnverifiedFactors();
    setState(await loadState());
  });

  /** The first app is on: its recovery codes, made now and shown once. */
  const turnedOn = async () => {
    toast(words.turnOn.done);
    try {
      setState({ step: "codes", made: await makeRecoveryCodes() });
    } catch (error) {
      // The list offers to make them.
      errorToast(error instanceof Error ? error : String(error));
      setState(await loadState());
    }
  };

  const remove = async (factor: Factor, factors: Factor[]) => {
    const supabase = await getSupabase();
    const { error } = await supabase.auth.mfa.unenroll({ factorId: factor.id });
    if (error) throw error;
    const last = isVerified(factor) && !factors.some((f) => f.id !== factor.id && isVerified(f));
    toast(words.removed(nameOf(factor), last));
    setState(await loadState());
  };

  const askToRemove = (factor: Factor, factors: Factor[]) =>
    act(async () => {
      if (isVerified(factor)) {
        const supabase = await getSupabase();
        const { data } = await supabase.auth.mfa.getAuthenticatorAssuranceLevel();
        if (data?.currentLevel !== "aal2")
          return setState({ step: "step-up", factors, factor, recoveryCode: false });
      }
      setState({ step: "removing", factors, factor });
    });

  const view = (() => {
    switch (state.step) {
      case "loading":
        return (
          <p role="status" className={text}>
            {words.loading}
          </p>
        );
      case "list": {
        const { factors } = state;
        const on = factors.some(isVerified);
        return (
          <div className="grid gap-5">
            {factors.length > 0 && (
              <ul aria-label={words.listLabel} className="grid gap-4">
                {factors.map((factor) => (
                  <FactorItem
                    key={factor.id}
                    factor={factor}
                    busy={busy}
                    onRemove={() => void askToRemove(factor, factors)()}
                  />
                ))}
              </ul>
            )}
            {!on && (
              <div className="grid gap-4">
                <p className={text}>{words.off}</p>
                <Button
                  type="button"
                  onClick={() => void startEnrolment()}
                  aria-disabled={busy}
                  className="justify-self-start"
                >
                  {words.setUp}
                </Button>
              </div>
            )}
            <SecurityKeyAdd
              names={factors.map(nameOf)}
              onAdded={async () => (on ? setState(await loadState()) : turnedOn())}
            />
            {on && <RecoveryCodesSettings />}
          </div>
        );
      }
      case "enrolling": {
        const { factorId, qrCode, secret } = state;
        return (
          <div className="grid gap-5">
            <TotpSetupKey qrCode={qrCode} secret={secret} />
            <AppCodeForm
              name={words.turnOn.formName}
              factorId={factorId}
              submitLabel={words.turnOn.submit}
              onVerified={turnedOn}
              cancel={{ label: words.turnOn.cancel, onClick: () => void cancelEnrolment() }}
            />
          </div>
        );
      }
      case "codes":
        return (
          <RecoveryCodesShown
            made={state.made}
            onSaved={() => void withErrorToast(async () => setState(await loadState()))}
          />
        );
      case "removing": {
        const { factor, factors } = state;
        const unfinished = !isVerified(factor);
        const last = !unfinished && !factors.some((f) => f.id !== factor.id && isVerified(f));
        return (
          <div className="grid gap-4" role="group" aria-label={words.confirmLabel(nameOf(factor))}>
            <p className={text}>{words.confirm(nameOf(factor), unfinished, last)}</p>
            <div className="flex flex-wrap gap-3">
              <Button
                type="button"
                variant="outline"
                className="border-destructive text-destructive hover:bg-rose-50"
                aria-disabled={busy}
                onClick={() => void act(() => remove(factor, factors))()}
              >
                {words.confirmYes}
              </Button>
              <Button
                type="button"
                variant="ghost"
                onClick={() => setState({ step: "list", factors })}
                aria-disabled={busy}
              >
                {words.keep}
              </Button>
            </div>
          </div>
        );
      }
      case "step-up": {
        const { factor, factors, recoveryCode } = state;
        const keep = { label: words.keep, onClick: () => setState({ step: "list", factors }) };
        const removeIt = () => withErrorToast(() => remove(factor, factors));
        if (recoveryCode)
          return (
            <RecoveryCodeStep
              submitLabel={words.stepUp.submit}
              onVerified={removeIt}
              onUseApp={() => setState({ ...state, recoveryCode: false })}
              cancel={keep}
            />
          );
        if (factor.factor_type === "webauthn")
          return (
            <SecurityKeyStep
              factorId={factor.id}
              onVerified={removeIt}
              onUseRecoveryCode={() => setState({ ...state, recoveryCode: true })}
              cancel={keep}
            />
          );
        return (
          <AppCodeStep
            title={words.stepUp.title}
            description={words.stepUp.description(nameOf(factor))}
            factorId={factor.id}
            submitLabel={words.stepUp.submit}
            onVerified={removeIt}
            onUseRecoveryCode={() => setState({ ...state, recoveryCode: true })}
            cancel={keep}
          />
        );
      }
    }
  })();
  return (
    <div ref={box} tabIndex={-1} className="outline-none">
      {view}
    </div>
  );
}

/** One second step: its name, whether it is on or never finished, when it was added, Remove. */
function FactorItem({
  factor,
  busy,
  onRemove,
}: {
  factor: Factor;
  busy: boolean;
  onRemove: () => void;
}) {
  const unfinished = !isVerified(factor);
  const name = nameOf(factor);
  return (
    <li className="flex flex-wrap items-center justify-between gap-4">
      <div className={text}>
        <p className="flex items-center gap-2 font-semibold text-ink">
          {name}{" "}
          {unfinished ? (
            <Badge variant="warning">{words.unfinished}</Badge>
          ) : (
            <Badge variant="accent">{words.on}</Badge>
          )}
        </p>
        <p>{words.added(formatDateTime(factor.created_at))}</p>
        {unfinished && <p className="mt-1">{words.unfinishedNote}</p>}
      </div>
      <Button
        type="button"
        variant="outline"
        aria-label={words.removeName(name, unfinished)}
        onClick={onRemove}
        aria-disabled={busy}
      >
        {words.remove}
      </Button>
    </li>
  );
}
