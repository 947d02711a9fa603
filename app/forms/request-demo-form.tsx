// The Request Demo page's form: six fields, errors under each field. The
// original only logged the values; ours submits a real lead (docs/decisions/0006-working-forms.md).
import { FUNCTIONS } from "../../common/functions.ts";
import { requestDemoSchema, type RequestDemo, type RequestDemoInput } from "../../common/leads.ts";
import { EmailField, PhoneField, TextField } from "./form-fields.tsx";
import { LeadFormSubmit } from "./lead-form-submit.tsx";
import { PrivacyNote } from "./privacy-note.tsx";
import { ScriptForm } from "./script-form.tsx";
import { useLeadForm } from "./use-lead-form.ts";

export function RequestDemoForm() {
  const { form, onSubmit, ...protection } = useLeadForm<RequestDemoInput, RequestDemo>({
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
  return (
    <ScriptForm label="Request a demo" onSubmit={onSubmit} className="relative grid gap-4">
      <div className="grid gap-4 sm:grid-cols-2">
        <TextField form={form} name="name" label="Name" autoComplete="name" />
        <EmailField form={form} name="email" label="Email" />
        <PhoneField form={form} name="phone" label="Phone" />
        <TextField form={form} name="company" label="Company" autoComplete="organization" />
        <TextField form={form} name="position" label="Position" autoComplete="organization-title" />
        <TextField
          form={form}
          name="website"
          label="Website"
          optional
          type="url"
          autoComplete="url"
          inputMode="url"
          placeholder="https://"
        />
      </div>
      <LeadFormSubmit
        {...protection}
        label="Request Demo"
        busyLabel="Submitting..."
        className="sm:justify-self-start"
      />
      <PrivacyNote kind="requestDemo" />
    </ScriptForm>
  );
}
