// The request-access form: the same fields, captcha and submission in the Request Access dialog
// and on the /request-access page (where ads, emails and visitors without script arrive).
import {
  COMPANY_SIZES,
  companySizeLabel,
  DEPARTMENTS,
  requestAccessSchema,
  type RequestAccess,
  type RequestAccessInput,
} from "../../common/leads.ts";
import { FUNCTIONS } from "../../common/functions.ts";
import { EmailField, SelectField, TextField } from "./form-fields.tsx";
import { LeadFormSubmit } from "./lead-form-submit.tsx";
import { PrivacyNote } from "./privacy-note.tsx";
import { ScriptForm } from "./script-form.tsx";
import { useLeadForm } from "./use-lead-form.ts";

export function RequestAccessForm({ onSuccess }: { onSuccess?: () => void }) {
  const { form, onSubmit, ...protection } = useLeadForm<RequestAccessInput, RequestAccess>({
    schema: requestAccessSchema,
    defaults: {
      firstName: "",
      lastName: "",
      email: "",
      companyName: "",
      companySize: "" as RequestAccessInput["companySize"],
      department: "" as RequestAccessInput["department"],
    },
    fn: FUNCTIONS.requestAccess,
    success: {
      title: "Request submitted successfully!",
      description: "Thank you for your interest. Our team will be in touch with you soon!",
    },
    failure: { title: "Error", description: "Failed to submit request. Please try again." },
    onSuccess,
  });
  return (
    <ScriptForm label="Request Access" onSubmit={onSubmit} className="relative grid gap-4">
      <div className="grid gap-4 sm:grid-cols-2">
        <TextField form={form} name="firstName" label="First name" autoComplete="given-name" />
        <TextField form={form} name="lastName" label="Last name" autoComplete="family-name" />
      </div>
      <EmailField form={form} name="email" label="Work email" />
      <TextField form={form} name="companyName" label="Company name" autoComplete="organization" />
      <div className="grid gap-4 sm:grid-cols-2">
        <SelectField
          form={form}
          name="companySize"
          label="Company size"
          placeholder="Select company size"
          options={COMPANY_SIZES.map((size) => ({ value: size, label: companySizeLabel(size) }))}
        />
        <SelectField
          form={form}
          name="department"
          label="Department"
          placeholder="Select department"
          options={DEPARTMENTS.map((d) => ({ value: d, label: d }))}
        />
      </div>
      <LeadFormSubmit {...protection} label="Request Access" busyLabel="Submitting..." />
      <PrivacyNote kind="requestAccess" />
    </ScriptForm>
  );
}
