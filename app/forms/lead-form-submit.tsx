// The end of every lead form: the honeypot, the proof-of-work check and the submit button, which
// looks disabled until the check is solved and while the form is being sent. It is `aria-disabled`,
// not `disabled`, so it keeps the focus (components/ui/button.tsx); pressed before the check is
// solved, it sends the form, which says the check is required (use-lead-form.ts) and shows what
// else is missing. Without JavaScript the check cannot run, and a line under the button says so
// and how to reach us instead.
import { HONEYPOT_FIELD } from "../../common/leads.ts";
import { Captcha } from "./captcha.tsx";
import { Button } from "../components/ui/button.tsx";
import { Honeypot } from "./honeypot.tsx";
import { contact } from "../content/site.ts";
import type { useLeadForm } from "./use-lead-form.ts";

type LeadForm = Pick<
  ReturnType<typeof useLeadForm>,
  "captcha" | "setCaptcha" | "captchaRef" | "honeypotRef" | "submitting"
>;

export function LeadFormSubmit({
  captcha,
  setCaptcha,
  captchaRef,
  honeypotRef,
  submitting,
  label,
  busyLabel,
  className,
}: LeadForm & { label: string; busyLabel: string; className?: string }) {
  return (
    <>
      <Honeypot name={HONEYPOT_FIELD} inputRef={honeypotRef} />
      <Captcha ref={captchaRef} onChange={setCaptcha} />
      <Button
        type="submit"
        size="lg"
        aria-disabled={!captcha || submitting}
        onPressWhileDisabled={
          submitting ? undefined : (event) => event.currentTarget.form?.requestSubmit()
        }
        className={className}
      >
        {submitting ? busyLabel : label}
      </Button>
      <noscript>
        <p className="text-sm text-slate-700">
          This form needs JavaScript to check you're not a robot and to send. Turn it on, or write
          to{" "}
          <a href={`mailto:${contact.email}`} className="font-semibold text-primary underline">
            {contact.email}
          </a>
          .
        </p>
      </noscript>
    </>
  );
}
