// The email field of the sign-in page's forms (the password form, the password recovery): read from
// the page (uncontrolled), so nothing typed before the island woke up is lost, and filled in with
// the address typed in the view before. Where passkeys are offered, the browser may list them in it.
import type * as React from "react";
import { Field } from "../components/ui/field.tsx";
import { Input } from "../components/ui/input.tsx";
import { passwordSignIn } from "../content/sign-in.ts";

export function SignInEmailField({
  defaultValue,
  error,
  inputRef,
  onInput,
  passkeys = false,
}: {
  defaultValue: string;
  error?: string;
  inputRef?: React.Ref<HTMLInputElement>;
  onInput?: () => void;
  /** The browser may offer the site's passkeys in this field (WebAuthn's conditional UI). */
  passkeys?: boolean;
}) {
  const copy = passwordSignIn.email;
  return (
    <Field label={copy.label} error={error}>
      {(p) => (
        <Input
          {...p}
          ref={inputRef}
          onInput={onInput}
          name="email"
          type="email"
          autoComplete={passkeys ? "username webauthn" : "email"}
          inputMode="email"
          placeholder={copy.placeholder}
          defaultValue={defaultValue}
        />
      )}
    </Field>
  );
}

/** The email typed in a form of the page. */
export const typedEmail = (form: HTMLFormElement | null): string =>
  String(new FormData(form ?? undefined).get("email") ?? "");
