// The contact form (/contact; spec §4, §5, §8): every field required, captcha, "Sending...".
import {
  contactSchema,
  HONEYPOT_FIELD,
  type Contact,
  type ContactInput,
} from "../../common/leads.ts";
import { FUNCTIONS } from "../../common/functions.ts";
import { Captcha } from "../components/captcha.tsx";
import { Button } from "../components/ui/button.tsx";
import { Field, Honeypot } from "../components/ui/field.tsx";
import { Input, Textarea } from "../components/ui/input.tsx";
import { useLeadForm } from "./use-lead-form.ts";

export function ContactForm() {
  const { form, onSubmit, captcha, setCaptcha, captchaRef, honeypotRef, submitting } = useLeadForm<
    ContactInput,
    Contact
  >({
    schema: contactSchema,
    defaults: { name: "", email: "", phone: "", message: "" },
    fn: FUNCTIONS.contact,
    success: {
      title: "Success!",
      description: "Your message has been sent successfully. We'll get back to you soon!",
    },
    failure: { title: "Error", description: "Failed to send message. Please try again." },
  });
  const { register, formState } = form;
  const errors = formState.errors;
  return (
    <form onSubmit={onSubmit} noValidate aria-label="Contact form" className="relative grid gap-4">
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
      </div>
      <Field label="Phone" error={errors.phone?.message}>
        {(p) => (
          <Input {...p} {...register("phone")} type="tel" autoComplete="tel" inputMode="tel" />
        )}
      </Field>
      <Field label="Message" error={errors.message?.message}>
        {(p) => <Textarea {...p} {...register("message")} rows={5} />}
      </Field>
      <Honeypot name={HONEYPOT_FIELD} inputRef={honeypotRef} />
      <Captcha ref={captchaRef} onChange={setCaptcha} />
      <Button
        type="submit"
        size="lg"
        disabled={!captcha || submitting}
        className="sm:justify-self-start"
      >
        {submitting ? "Sending..." : "Send message"}
      </Button>
    </form>
  );
}
