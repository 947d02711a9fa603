// The Request Demo page's form (spec §2, §3, §5): six fields, errors under each field. The
// original only logged the values; ours submits a real lead (docs/decisions/0006-working-forms.md).
import {
  HONEYPOT_FIELD,
  requestDemoSchema,
  type RequestDemo,
  type RequestDemoInput,
} from "../../common/leads.ts";
import { FUNCTIONS } from "../../common/functions.ts";
import { Captcha } from "../components/captcha.tsx";
import { Button } from "../components/ui/button.tsx";
import { Field, Honeypot } from "../components/ui/field.tsx";
import { Input } from "../components/ui/input.tsx";
import { useLeadForm } from "./use-lead-form.ts";

export function RequestDemoForm() {
  const { form, onSubmit, captcha, setCaptcha, captchaRef, honeypotRef, submitting } = useLeadForm<
    RequestDemoInput,
    RequestDemo
  >({
    schema: requestDemoSchema,
    defaults: { name: "", email: "", phone: "", company: "", position: "", website: "" },
    fn: FUNCTIONS.requestDemo,
    success: {
      title: "Request received!",
      description: "Thanks! We'll be in touch within one business day to schedule your demo.",
    },
    failure: {
      title: "Error",
      description: "Failed to submit your demo request. Please try again.",
    },
  });
  const { register, formState } = form;
  const errors = formState.errors;
  return (
    <form
      onSubmit={onSubmit}
      noValidate
      aria-label="Request a demo"
      className="relative grid gap-4"
    >
      <div className="grid gap-4 sm:grid-cols-2">
        <Field label="Name" error={errors.name?.message}>
          {(p) => <Input {...p} {...register("name")} autoComplete="name" />}
        </Field>
        <Field label="Email" error={errors.email?.message}>
          {(p) => (
            <Input
              {...p}
              {...register("email")}
              type="email"
              autoComplete="email"
              inputMode="email"
            />
          )}
        </Field>
        <Field label="Phone" error={errors.phone?.message}>
          {(p) => (
            <Input {...p} {...register("phone")} type="tel" autoComplete="tel" inputMode="tel" />
          )}
        </Field>
        <Field label="Company" error={errors.company?.message}>
          {(p) => <Input {...p} {...register("company")} autoComplete="organization" />}
        </Field>
        <Field label="Position" error={errors.position?.message}>
          {(p) => <Input {...p} {...register("position")} autoComplete="organization-title" />}
        </Field>
        <Field label="Website" optional error={errors.website?.message}>
          {(p) => (
            <Input
              {...p}
              {...register("website")}
              type="url"
              autoComplete="url"
              inputMode="url"
              placeholder="https://"
            />
          )}
        </Field>
      </div>
      <Honeypot name={HONEYPOT_FIELD} inputRef={honeypotRef} />
      <Captcha ref={captchaRef} onChange={setCaptcha} />
      <Button
        type="submit"
        size="lg"
        disabled={!captcha || submitting}
        className="sm:justify-self-start"
      >
        {submitting ? "Submitting..." : "Request Demo"}
      </Button>
    </form>
  );
}
