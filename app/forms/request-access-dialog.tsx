// The Request Access dialog (spec §4, §5, §8). Loaded when a Request Access button is first used.
import {
  COMPANY_SIZES,
  companySizeLabel,
  DEPARTMENTS,
  HONEYPOT_FIELD,
  requestAccessSchema,
  type RequestAccess,
  type RequestAccessInput,
} from "../../common/leads.ts";
import { FUNCTIONS } from "../../common/functions.ts";
import { Captcha } from "../components/captcha.tsx";
import { Button } from "../components/ui/button.tsx";
import { Dialog, DialogContent, DialogDescription, DialogTitle } from "../components/ui/dialog.tsx";
import { Field, Honeypot } from "../components/ui/field.tsx";
import { Input, Select } from "../components/ui/input.tsx";
import { useLeadForm } from "./use-lead-form.ts";

export default function RequestAccessDialog({
  open,
  onOpenChange,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
}) {
  const { form, onSubmit, captcha, setCaptcha, captchaRef, honeypotRef, submitting } = useLeadForm<
    RequestAccessInput,
    RequestAccess
  >({
    schema: requestAccessSchema,
    defaults: {
      firstName: "",
      lastName: "",
      email: "",
      companyName: "",
      companySize: "" as RequestAccessInput["companySize"],
      department: "" as RequestAccessInput["department"],
    },
    fn: FUNCTIONS.intake,
    success: {
      title: "Request submitted successfully!",
      description: "Thank you for your interest. Our team will be in touch with you soon!",
    },
    failure: { title: "Error", description: "Failed to submit request. Please try again." },
    onSuccess: () => onOpenChange(false),
  });
  const { register, formState } = form;
  const errors = formState.errors;

  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent>
        <DialogTitle>Request Access</DialogTitle>
        <DialogDescription>
          Tell us about you and your team. We'll set up your Revwise workspace and get back to you
          within one business day.
        </DialogDescription>
        <form onSubmit={onSubmit} noValidate className="relative mt-6 grid gap-4">
          <div className="grid gap-4 sm:grid-cols-2">
            <Field label="First name" error={errors.firstName?.message}>
              {(p) => <Input {...p} {...register("firstName")} autoComplete="given-name" />}
            </Field>
            <Field label="Last name" error={errors.lastName?.message}>
              {(p) => <Input {...p} {...register("lastName")} autoComplete="family-name" />}
            </Field>
          </div>
          <Field label="Work email" error={errors.email?.message}>
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
          <Field label="Company name" error={errors.companyName?.message}>
            {(p) => <Input {...p} {...register("companyName")} autoComplete="organization" />}
          </Field>
          <div className="grid gap-4 sm:grid-cols-2">
            <Field label="Company size" error={errors.companySize?.message}>
              {(p) => (
                <Select {...p} {...register("companySize")}>
                  <option value="">Select company size</option>
                  {COMPANY_SIZES.map((size) => (
                    <option key={size} value={size}>
                      {companySizeLabel(size)}
                    </option>
                  ))}
                </Select>
              )}
            </Field>
            <Field label="Department" error={errors.department?.message}>
              {(p) => (
                <Select {...p} {...register("department")}>
                  <option value="">Select department</option>
                  {DEPARTMENTS.map((d) => (
                    <option key={d} value={d}>
                      {d}
                    </option>
                  ))}
                </Select>
              )}
            </Field>
          </div>
          <Honeypot name={HONEYPOT_FIELD} inputRef={honeypotRef} />
          <Captcha ref={captchaRef} onChange={setCaptcha} />
          <Button type="submit" size="lg" disabled={!captcha || submitting}>
            {submitting ? "Submitting..." : "Request Access"}
          </Button>
        </form>
      </DialogContent>
    </Dialog>
  );
}
