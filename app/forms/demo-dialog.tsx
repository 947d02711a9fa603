// The "Watch Demo" dialog: a business email in, the demo video by email out.
// Error toasts last 3 s, the success toast 5 s.
import { zodResolver } from "@hookform/resolvers/zod";
import { useForm } from "react-hook-form";
import { demoEmailFieldSchema, isFreeMailAddress } from "../../common/leads.ts";
import { Button } from "../components/ui/button.tsx";
import { Dialog, DialogContent, DialogDescription, DialogTitle } from "../components/ui/dialog.tsx";
import { leadSource } from "../lib/lead-source.ts";
import { getSupabase } from "../lib/supabase.ts";
import { toast } from "../lib/toast.ts";
import { EmailField } from "./form-fields.tsx";
import { FORM_FALLBACK_ACTION } from "../lib/form-fallback.ts";

export const DEMO_ERROR_TOAST_MS = 3000;
export const DEMO_SUCCESS_TOAST_MS = 5000;

export default function DemoDialog({
  open,
  onOpenChange,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
}) {
  // Two steps: present and valid (under the field), then a business address (a toast).
  const form = useForm<{ email: string }>({
    resolver: zodResolver(demoEmailFieldSchema),
    defaultValues: { email: "" },
    mode: "onSubmit",
    reValidateMode: "onChange",
  });
  const { formState } = form;

  const onSubmit = form.handleSubmit(async ({ email }) => {
    if (isFreeMailAddress(email)) {
      toast({
        variant: "destructive",
        title: "Business Email Required",
        description: "Please use your business email address",
        duration: DEMO_ERROR_TOAST_MS,
      });
      return;
    }
    try {
      const supabase = await getSupabase();
      const { error } = await supabase
        .from("demo_requests")
        .insert({ email, source: leadSource() });
      // Asking again for an address answers the same (the server sends nothing new).
      if (error) throw error;
      toast({
        title: "Demo Access Sent!",
        description: "An email is headed your way. Please check your inbox",
        duration: DEMO_SUCCESS_TOAST_MS,
      });
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
  });

  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent className="max-w-md">
        <DialogTitle>Watch the Revwise demo</DialogTitle>
        <DialogDescription>
          Enter your business email and we'll send you the ten-minute product tour right away.
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
          <Button type="submit" size="lg" disabled={formState.isSubmitting}>
            {formState.isSubmitting ? "Sending..." : "Send me the demo"}
          </Button>
        </form>
      </DialogContent>
    </Dialog>
  );
}
