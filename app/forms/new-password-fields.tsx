// A new password and its confirmation (common/accounts.ts newPasswordSchema): the reset page's and
// the account page's.
import type { UseFormReturn } from "react-hook-form";
import { TextField } from "./form-fields.tsx";

export type NewPasswordValues = { password: string; confirm: string };

export function NewPasswordFields({ form }: { form: UseFormReturn<NewPasswordValues> }) {
  return (
    <>
      <TextField
        form={form}
        name="password"
        label="New password"
        description="At least 8 characters; avoid passwords you use elsewhere."
        type="password"
        autoComplete="new-password"
      />
      <TextField
        form={form}
        name="confirm"
        label="Confirm new password"
        type="password"
        autoComplete="new-password"
      />
    </>
  );
}
