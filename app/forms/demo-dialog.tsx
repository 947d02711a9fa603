// The "Watch Demo" dialog: a business email in, the demo video by email out.
// Error toasts last 3 s, the success toast 5 s.
import { zodResolver } from "@hookform/resolvers/zod";
import { useForm, type FieldErrors } from "react-hook-form";
import { demoEmailSchema } from "../../common/business-email.ts";
import { Button } from "../components/ui/button.tsx";
import { Dialog, DialogContent, DialogDescription, DialogTitle } from "../components/ui/dialog.tsx";
import { leadSource } from "../lib/lead-source.ts";
import { getSupabase } from "../lib/supabase.ts";
import { toast } from "../lib/toast.ts";
import { EmailField } from "./form-fields.tsx";
import type { DialogProps } from "./lazy-dialog-button.tsx";
import { PrivacyNote } from "./privacy-note.tsx";
import { FORM_FALLBACK_ACTION } from "../../common/site-build.ts";

const DEMO_ERROR_TOAST_MS = 3000;
const DEMO_SUCCESS_TOAST_MS = 5000;

/** A free-mail address: the schema's message under the field, and this toast. */
const BUSINESS_EMAIL_REQUIRED = {
  title: "Business Email Required",
  description: "Please use your business email address",
};

const DEMO_SENT = {
  title: "Demo Access Sent!",
  description: "An email is headed your way. Please check your inbox",
};

/** The same address asked less than an hour ago: its email went then, and no new one goes now. */
const ALREADY_SENT = {
  title: "Already in your inbox",
  description:
    "We emailed the tour's link to this address less than an hour ago, so no new email is coming. Please check your inbox and spam folder.",
};

export default function DemoDialog({ open, onOpenChange, opener }: DialogProps) {
  // The server's schema: present and valid, then a business address. Every refusal shows under
  // the field; a free-mail address is also said in a toast (the spec's).
  const form = useForm<{ email: string }>({
    resolver: zodResolver(demoEmailSchema),
    defaultValues: { email: "" },
    mode: "onSubmit",
    reValidateMode: "onChange",
  });
  const { formState } = form;

  const refused = (errors: FieldErrors<{ email: string }>) => {
    if (errors.email?.message !== BUSINESS_EMAIL_REQUIRED.description) return;
    toast({ variant: "destructive", ...BUSINESS_EMAIL_REQUIRED, duration: DEMO_ERROR_TOAST_MS });
  };

  const onSubmit = form.handleSubmit(async ({ email }) => {
    try {
      const supabase = await getSupabase();
      const { error, status } = await supabase
        .from("demo_requests")
        .insert({ email, source: leadSource() });
      if (error) throw error;
      // 200: the address asked within the hour, and the server sent nothing new.
      toast({ ...(status === 200 ? ALREADY_SENT : DEMO_SENT), duration: DEMO_SUCCESS_TOAST_MS });
      form.reset();
      onOpenChange(false);
    } catch {
      toast({
        variant: "destructive",
        title: "Error",
        description: "Failed to submit demo request. Please try again.",
        duration: DEMO_ERROR_TOAST_MS,
      });
    }
  }, refused);

  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent className="max-w-md" returnFocusTo={opener}>
        <DialogTitle>Watch the Revwise demo</DialogTitle>
        <DialogDescription>
          Enter your business email and we'll send you the link to the step-by-step product tour
          right away.
        </DialogDescription>
        <form
          method="post"
          action={FORM_FALLBACK_ACTION}
          onSubmit={onSubmit}
          noValidate
          className="mt-6 grid gap-4"
        >
          <EmailField
            form={form}
            name="email"
            label="Business email"
            placeholder="you@company.com"
          />
          {/* Busy, it keeps the focus and ignores presses (components/ui/button.tsx). */}
          <Button type="submit" size="lg" aria-disabled={formState.isSubmitting}>
            {formState.isSubmitting ? "Sending..." : "Send me the demo"}
          </Button>
          <PrivacyNote kind="demoEmail" />
        </form>
      </DialogContent>
    </Dialog>
  );
}
