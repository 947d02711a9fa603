// Two-step verification on the account page: set up an authenticator app (its QR code and secret,
// then its first code turns it on and raises this session to aal2), or remove it. Removing a
// verified app needs an aal2 session: a session below that enters a code from the app first.
import type { Factor } from "@supabase/supabase-js";
import { useEffect, useRef, useState } from "react";
import { AppCodeForm } from "../../forms/code-form.tsx";
import { dropUnverifiedFactors, enrolTotp, formatDateTime } from "../../lib/account.ts";
import { getSupabase } from "../../lib/supabase.ts";
import { toast, withErrorToast } from "../../lib/toast.ts";
import { useBusyAction } from "../../lib/use-busy-action.ts";
import { Badge } from "../ui/badge.tsx";
import { Button } from "../ui/button.tsx";
import { TotpSetupKey } from "./totp-setup-key.tsx";

type State =
  | { step: "loading" }
  | { step: "off" }
  | { step: "enrolling"; factorId: string; qrCode: string; secret: string }
  | { step: "on"; factor: Factor }
  | { step: "removing"; factor: Factor; needsCode: boolean };

const FRIENDLY_NAME = "Authenticator app";

async function loadState(): Promise<State> {
  const supabase = await getSupabase();
  const { data, error } = await supabase.auth.mfa.listFactors();
  if (error) throw error;
  const verified = data.totp.find((f) => f.status === "verified");
  return verified ? { step: "on", factor: verified } : { step: "off" };
}

export function TwoFactorSettings() {
  const [state, setShownState] = useState<State>({ step: "loading" });
  const [busy, run] = useBusyAction();
  useEffect(() => void withErrorToast(async () => setShownState(await loadState())), []);
  // A step the person moved to replaces the button they pressed: the focus goes to the new step
  // (announced, and the keyboard continues there) instead of falling back to the page.
  const box = useRef<HTMLDivElement>(null);
  const [moves, setMoves] = useState(0);
  const setState = (next: State) => {
    setMoves((n) => n + 1);
    setShownState(next);
  };
  useEffect(() => {
    if (moves > 0) box.current?.focus();
  }, [moves]);

  const act = (action: () => Promise<void>) => () => run(action);

  const startEnrolment = act(async () => {
    setState({ step: "enrolling", ...(await enrolTotp(FRIENDLY_NAME)) });
  });

  const cancelEnrolment = act(async () => {
    await dropUnverifiedFactors();
    setState({ step: "off" });
  });

  const remove = async (factor: Factor) => {
    const supabase = await getSupabase();
    const { error } = await supabase.auth.mfa.unenroll({ factorId: factor.id });
    if (error) throw error;
    toast({
      title: "Authenticator app removed",
      description: "You now sign in with your password or an email link alone.",
    });
    setState({ step: "off" });
  };

  const askToRemove = (factor: Factor) =>
    act(async () => {
      const supabase = await getSupabase();
      const { data } = await supabase.auth.mfa.getAuthenticatorAssuranceLevel();
      setState({ step: "removing", factor, needsCode: data?.currentLevel !== "aal2" });
    });

  const view = (() => {
    switch (state.step) {
      case "loading":
        return (
          <p role="status" className="text-sm text-slate-700">
            Checking your two-step verification...
          </p>
        );
      case "off":
        return (
          <div className="grid gap-4">
            <p className="text-sm leading-6 text-slate-700">
              Add a second step to your sign-in: after your password or email link, Revwise asks for
              a 6-digit code from an authenticator app on your phone, such as 1Password, Google
              Authenticator or Microsoft Authenticator.
            </p>
            <Button
              type="button"
              onClick={() => void startEnrolment()}
              aria-disabled={busy}
              className="justify-self-start"
            >
              Set up an authenticator app
            </Button>
          </div>
        );
      case "enrolling": {
        const { factorId, qrCode, secret } = state;
        return (
          <div className="grid gap-5">
            <TotpSetupKey qrCode={qrCode} secret={secret} />
            <AppCodeForm
              name="Turn on two-step verification"
              factorId={factorId}
              submitLabel="Verify and turn on"
              onVerified={async () => {
                toast({
                  title: "Two-step verification is on",
                  description: "Next time you sign in, we'll ask for a code from your app.",
                });
                setState(await loadState());
              }}
              cancel={{ label: "Cancel", onClick: () => void cancelEnrolment() }}
            />
          </div>
        );
      }
      case "on": {
        const { factor } = state;
        return (
          <div className="flex flex-wrap items-center justify-between gap-4">
            <div className="text-sm leading-6 text-slate-700">
              <p className="flex items-center gap-2 font-semibold text-ink">
                {factor.friendly_name || FRIENDLY_NAME} <Badge variant="accent">On</Badge>
              </p>
              <p>Added {formatDateTime(factor.created_at)}</p>
            </div>
            <Button
              type="button"
              variant="outline"
              onClick={() => void askToRemove(factor)()}
              aria-disabled={busy}
            >
              Remove authenticator app
            </Button>
          </div>
        );
      }
      case "removing": {
        const { factor, needsCode } = state;
        const keep = () => setState({ step: "on", factor });
        if (needsCode)
          return (
            <div className="grid gap-4">
              <p className="text-sm leading-6 text-slate-700">
                To remove your authenticator app, first confirm it's you with a code from it.
              </p>
              <AppCodeForm
                name="Remove authenticator app"
                factorId={factor.id}
                submitLabel="Verify and remove"
                onVerified={() => withErrorToast(() => remove(factor))}
                cancel={{ label: "Keep it", onClick: keep }}
              />
            </div>
          );
        return (
          <div className="grid gap-4" role="group" aria-label="Remove authenticator app">
            <p className="text-sm leading-6 text-slate-700">
              Remove your authenticator app? You'll sign in with your password or an email link
              alone.
            </p>
            <div className="flex flex-wrap gap-3">
              <Button
                type="button"
                variant="outline"
                className="border-destructive text-destructive hover:bg-rose-50"
                aria-disabled={busy}
                onClick={() => void act(() => remove(factor))()}
              >
                Yes, remove it
              </Button>
              <Button type="button" variant="ghost" onClick={keep} aria-disabled={busy}>
                Keep it
              </Button>
            </div>
          </div>
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
