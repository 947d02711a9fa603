// The sign-in page's password form: email and password, "Sign in" and an outlined "Sign up", both
// busy while a request runs. The fields are only checked for being filled in before a request
// (decision 0037): their format and strength are the server's to judge. Also the way to a password
// reset, a sign-in link by email instead of the password, and sending the confirmation email again
// to an account that is not confirmed yet, and a passkey sign-in where passkeys are offered (its
// button, and the email field's autofill). It reports what happened (signed in, an email went out,
// the reset asked for); what shows next is the sign-in panel's.
import { useEffect, useRef, useState } from "react";
import { AddressLine } from "../components/ui/address.tsx";
import { Button } from "../components/ui/button.tsx";
import { Field } from "../components/ui/field.tsx";
import { Input } from "../components/ui/input.tsx";
import { passkeySignIn } from "../content/passkeys.ts";
import { passwordSignIn as copy, type SentEmail } from "../content/sign-in.ts";
import { signInLinkReturn } from "../lib/account.ts";
import { getSupabase } from "../lib/supabase.ts";
import { errorToast, toast } from "../lib/toast.ts";
import { useBusyAction } from "../lib/use-busy-action.ts";
import {
  passkeyAutofillAvailable,
  passkeysOffered,
  signInWithPasskey,
  type Outcome,
} from "../lib/webauthn.ts";
import { ScriptForm } from "./script-form.tsx";
import { SignInEmailField, typedEmail } from "./sign-in-email-field.tsx";

type Credentials = { email: string; password: string };
type Missing = Partial<Record<keyof Credentials, string>>;

/**
 * The fields left empty, with what to say under each: a sign-up without an email would be taken
 * by the server as an anonymous sign-up (and refused in words about that).
 */
function missingFields({ email, password }: Credentials): Missing {
  const missing: Missing = {};
  if (!email.trim()) missing.email = copy.missing.email;
  if (!password) missing.password = copy.missing.password;
  return missing;
}

export function SignInForm({
  email: typedBefore,
  takeFocus,
  onSignedIn,
  onForgotPassword,
  onEmailSent,
}: {
  /** The address typed in the view before (or the one an email went to). */
  email: string;
  /** The form replaces another view: its first field takes the focus. */
  takeFocus: boolean;
  /** After a password sign-in; the buttons stay busy until it is done (it may navigate away). */
  onSignedIn: () => Promise<void> | void;
  /** "Forgot password?", with the address typed so far. */
  onForgotPassword: (email: string) => void;
  /** A sign-in link or a sign-up's confirmation went out to `email`. */
  onEmailSent: (sent: Exclude<SentEmail, "recovery">, email: string) => void;
}) {
  const [busy, run] = useBusyAction();
  const formRef = useRef<HTMLFormElement>(null);
  const emailInput = useRef<HTMLInputElement>(null);
  const passwordInput = useRef<HTMLInputElement>(null);
  const read = (): Credentials => ({
    email: typedEmail(formRef.current),
    password: String(new FormData(formRef.current ?? undefined).get("password") ?? ""),
  });
  // The empty fields of the last attempt, each message under its field until it is typed in.
  const [missing, setMissing] = useState<Missing>({});
  /** The credentials when both are filled in; else null, the messages shown and the focus moved. */
  const filledIn = (): Credentials | null => {
    const credentials = read();
    const found = missingFields(credentials);
    setMissing(found);
    if (found.email) emailInput.current?.focus();
    else if (found.password) passwordInput.current?.focus();
    return found.email || found.password ? null : credentials;
  };
  // The address of an account that tried to sign in before it was confirmed: the way to have the
  // confirmation email sent again shows under Sign in.
  const [unconfirmed, setUnconfirmed] = useState<string | null>(null);

  useEffect(() => {
    if (takeFocus) emailInput.current?.focus();
  }, [takeFocus]);

  // Where the browser and the server offer passkeys: the button, and the email field's autofill
  // (a passkey picked there signs in as the button does; the prompt waits until then).
  const [passkeys, setPasskeys] = useState(false);
  const passkeyDone = async (outcome: Outcome, quiet: boolean): Promise<void> => {
    if (outcome.ok) await onSignedIn();
    else if (outcome.reason === "refused")
      toast({ variant: "destructive", ...passkeySignIn.refused });
    else if (!quiet) toast(passkeySignIn.cancelled);
  };
  useEffect(() => {
    let live = true;
    void (async () => {
      if (!(await passkeysOffered()) || !live) return;
      setPasskeys(true);
      if (await passkeyAutofillAvailable()) await passkeyDone(await signInWithPasskey(true), true);
    })();
    return () => {
      live = false;
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps -- once, when the form first shows
  }, []);
  const passkeySignInNow = () => run(async () => passkeyDone(await signInWithPasskey(), false));

  const signIn = () =>
    run(async () => {
      const credentials = filledIn();
      if (!credentials) return;
      const supabase = await getSupabase();
      const { data, error } = await supabase.auth.signInWithPassword(credentials);
      setUnconfirmed(error?.code === "email_not_confirmed" ? credentials.email : null);
      if (error) return errorToast(error);
      if (!data.session || !data.user) return errorToast(copy.noSession);
      await onSignedIn();
    });

  // The link comes back to this page, which finishes the sign-in (or asks for the app's code), with
  // the page that sent the visitor here (`?next=`), where it goes once signed in.
  const emailLink = () =>
    run(async () => {
      const email = read().email.trim();
      if (!email) return errorToast(copy.emailLinkNeedsEmail);
      const supabase = await getSupabase();
      const { error } = await supabase.auth.signInWithOtp({
        email,
        options: { emailRedirectTo: `${window.location.origin}${signInLinkReturn()}` },
      });
      if (error) return errorToast(error);
      toast(copy.linkSent(email));
      onEmailSent("signInLink", email);
    });

  const signUp = () =>
    run(async () => {
      const credentials = filledIn();
      if (!credentials) return;
      const supabase = await getSupabase();
      const { data, error } = await supabase.auth.signUp({
        ...credentials,
        options: { emailRedirectTo: `${window.location.origin}/` },
      });
      if (error) return errorToast(error);
      toast(copy.signedUp);
      // Without a session, an email went out (a confirmation, or to an address that has an
      // account, how to sign in): its code is taken next.
      if (!data.session) onEmailSent("confirmation", credentials.email.trim());
    });

  const resendConfirmation = (email: string) =>
    run(async () => {
      const supabase = await getSupabase();
      const { error } = await supabase.auth.resend({
        type: "signup",
        email,
        options: { emailRedirectTo: `${window.location.origin}/` },
      });
      if (error) return errorToast(error);
      toast(copy.confirmationSent(email));
      onEmailSent("confirmation", email);
    });

  return (
    <ScriptForm
      ref={formRef}
      label={copy.formLabel}
      className="grid gap-4"
      onSubmit={(e) => {
        e.preventDefault();
        void signIn();
      }}
    >
      <SignInEmailField
        passkeys={passkeys}
        defaultValue={typedBefore}
        error={missing.email}
        inputRef={emailInput}
        onInput={() => {
          setMissing(({ email: _, ...rest }) => rest);
          setUnconfirmed(null);
        }}
      />
      <Field label={copy.password.label} error={missing.password}>
        {(p) => (
          <Input
            {...p}
            ref={passwordInput}
            onInput={() => setMissing(({ password: _, ...rest }) => rest)}
            name="password"
            type="password"
            autoComplete="current-password"
            placeholder={copy.password.placeholder}
          />
        )}
      </Field>
      <button
        type="button"
        onClick={() => onForgotPassword(read().email)}
        className="justify-self-end text-sm font-medium text-primary underline-offset-4 hover:underline"
      >
        {copy.forgotPassword}
      </button>
      <div className="grid gap-3" aria-busy={busy}>
        <Button type="submit" size="lg" aria-disabled={busy}>
          {copy.submit}
        </Button>
        {/* Always in the page, so that the note is announced when it appears. */}
        <p role="status" className="sr-only">
          {unconfirmed === null ? "" : copy.unconfirmed.status}
        </p>
        {unconfirmed !== null && (
          <div className="grid gap-2 rounded-md border border-border bg-muted/40 p-3">
            <p className="text-sm leading-6 text-slate-700">
              <AddressLine line={copy.unconfirmed.note} address={unconfirmed} />
            </p>
            <Button
              type="button"
              variant="outline"
              aria-disabled={busy}
              onClick={() => void resendConfirmation(unconfirmed)}
            >
              {copy.unconfirmed.resend}
            </Button>
          </div>
        )}
        <Button
          type="button"
          size="lg"
          variant="outline"
          aria-disabled={busy}
          onClick={() => void signUp()}
        >
          {copy.signUp}
        </Button>
        <p className="flex items-center gap-3 text-xs font-medium text-slate-600 uppercase before:h-px before:flex-1 before:bg-border after:h-px after:flex-1 after:bg-border">
          {copy.or}
        </p>
        <Button
          type="button"
          size="lg"
          variant="secondary"
          aria-disabled={busy}
          onClick={() => void emailLink()}
        >
          {copy.emailLink}
        </Button>
        {passkeys && (
          <Button
            type="button"
            size="lg"
            variant="outline"
            aria-disabled={busy}
            onClick={() => void passkeySignInNow()}
          >
            {passkeySignIn.button}
          </Button>
        )}
      </div>
    </ScriptForm>
  );
}
