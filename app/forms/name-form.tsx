// The account page's name: kept in the user's metadata (common/accounts.ts names the key).
import { zodResolver } from "@hookform/resolvers/zod";
import { useForm } from "react-hook-form";
import { NAME_METADATA_KEY, profileNameSchema } from "../../common/accounts.ts";
import { Button } from "../components/ui/button.tsx";
import { TextField } from "./form-fields.tsx";
import { ScriptForm } from "./script-form.tsx";
import { getSupabase } from "../lib/supabase.ts";
import { errorToast, toast } from "../lib/toast.ts";

export function NameForm({ name }: { name: string }) {
  const form = useForm<{ name: string }>({
    resolver: zodResolver(profileNameSchema),
    defaultValues: { name },
  });
  const onSubmit = form.handleSubmit(async (values) => {
    const supabase = await getSupabase();
    const { error } = await supabase.auth.updateUser({
      data: { [NAME_METADATA_KEY]: values.name },
    });
    if (error) return errorToast(error);
    form.reset(values);
    toast({ title: "Name saved", description: `We'll call you ${values.name}.` });
  });
  const { errors, isSubmitting } = form.formState;
  return (
    <ScriptForm
      onSubmit={onSubmit}
      label="Your name"
      className="grid gap-4 sm:grid-cols-[1fr_auto] sm:items-end"
    >
      <TextField form={form} name="name" label="Name" autoComplete="name" />
      <Button
        type="submit"
        aria-disabled={isSubmitting}
        className={errors.name ? "sm:mb-7" : undefined}
      >
        {isSubmitting ? "Saving..." : "Save name"}
      </Button>
    </ScriptForm>
  );
}
