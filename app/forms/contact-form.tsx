// The contact form (/contact): every field required, captcha, "Sending...".
import { FUNCTIONS } from "../../common/functions.ts";
import { contactSchema, type Contact, type ContactInput } from "../../common/leads.ts";
import { EmailField, PhoneField, TextAreaField, TextField } from "./form-fields.tsx";
import { LeadFormSubmit } from "./lead-form-submit.tsx";
import { PrivacyNote } from "./privacy-note.tsx";
import { ScriptForm } from "./script-form.tsx";
import { useLeadForm } from "./use-lead-form.ts";

export function ContactForm() {
  const { form, onSubmit, ...protection } = useLeadForm<ContactInput, Contact>({
    schema: contactSchema,
    defaults: { name: "", email: "", phone: "", message: "" },
    fn: FUNCTIONS.contact,
    success: {
      title: "Success!",
      description: "Your message has been sent successfully. We'll get back to you soon!",
    },
    failure: { title: "Error", description: "Failed to send message. Please try again." },
  });
  return (
    <ScriptForm label="Contact form" onSubmit={onSubmit} className="relative grid gap-4">
      <div className="grid gap-4 sm:grid-cols-2">
        <TextField form={form} name="name" label="Name" autoComplete="name" />
        <EmailField form={form} name="email" label="Email" />
      </div>
      <PhoneField form={form} name="phone" label="Phone" />
      <TextAreaField form={form} name="message" label="Message" rows={5} />
      <LeadFormSubmit
        {...protection}
        label="Send message"
        busyLabel="Sending..."
        className="sm:justify-self-start"
      />
      <PrivacyNote kind="contact" />
    </ScriptForm>
  );
}
