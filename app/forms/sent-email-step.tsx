// The sign-in page's step after one of its emails went out (a sign-in link, a sign-up's
// confirmation, a password recovery): where it went, and the field for its code.
import { AddressLine } from "../components/ui/address.tsx";
import { backToSignIn, emailCodeSteps, type SentEmail } from "../content/sign-in.ts";
import type { EmailCodeType } from "../lib/account.ts";
import { EmailCodeStep } from "./code-form.tsx";

/** What each email's code is for at /verify. */
const VERIFY_TYPE: Record<SentEmail, EmailCodeType> = {
  signInLink: "email",
  confirmation: "signup",
  recovery: "recovery",
};

export function SentEmailStep({
  sent,
  email,
  onVerified,
  onBack,
}: {
  sent: SentEmail;
  /** Where the email went. */
  email: string;
  /** After the code was used (a session is stored); may navigate away. */
  onVerified: () => Promise<void> | void;
  /** Back to the password form. */
  onBack: () => void;
}) {
  const copy = emailCodeSteps[sent];
  return (
    <EmailCodeStep
      title={copy.title}
      description={<AddressLine line={copy.sentTo} address={email} />}
      submitLabel={copy.submitLabel}
      email={email}
      type={VERIFY_TYPE[sent]}
      onVerified={onVerified}
      cancel={{ label: backToSignIn, onClick: onBack }}
    />
  );
}
