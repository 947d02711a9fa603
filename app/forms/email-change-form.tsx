// The account page's email change: the server sends a link to the new address and one to the
// current one; the change happens when both are opened (their links come back to the account page).
import { zodResolver } from "@hookform/resolvers/zod";
import { useForm } from "react-hook-form";
import { emailChangeSchema } from "../../common/accounts.ts";
import { Button } from "../components/ui/button.tsx";
import { EmailField } from "./form-fields.tsx";
import { ScriptForm } from "./script-form.tsx";
import { getSupabase } from "../lib/supabase.ts";
import { errorToast, toast } from "../lib/toast.ts";

export function EmailChangeForm({ email }: { email: string }) {
  const form = useForm<{ email: string }>({
    resolver: zodResolver(emailChangeSchema),
    defaultValues: { email: "" },
  });
  const onSubmit = form.handleSubmit(async (values) => {
    if (values.email === email.toLowerCase()) {
      form.setError("email", { message: "That's already your email address." });
      return;
    }
    const supabase = await getSupabase();
    const { error } = await supabase.auth.updateUser(
      { email: values.email },
      { emailRedirectTo: `${window.location.origin}/account` },
    );
    if (error) return errorToast(error);
    form.reset();
    toast({
      title: "Check both inboxes",
      description: `Open the links we sent to ${values.email} and to ${email} to complete the change.`,
    });
  });
  const { errors, isSubmitting } = form.formState;
  return (
    <ScriptForm
      onSubmit={onSubmit}
      label="Change your email"
      className="grid gap-4 sm:grid-cols-[1fr_auto] sm:items-end"
    >
      <EmailField form={form} name="email" label="New email address" />
      <Button
        type="submit"
        variant="outline"
        aria-disabled={isSubmitting}
        className={errors.email ? "sm:mb-7" : undefined}
      >
        {isSubmitting ? "Sending..." : "Change email"}
      </Button>
    </ScriptForm>
  );
}
