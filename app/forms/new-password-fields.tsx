// A new password and its confirmation (common/accounts.ts newPasswordSchema): the reset page's and
// the account page's.
import type { Path, UseFormReturn } from "react-hook-form";
import { TextField } from "./form-fields.tsx";

export type NewPasswordValues = { password: string; confirm: string };

export function NewPasswordFields<T extends NewPasswordValues>({
  form,
}: {
  form: UseFormReturn<T>;
}) {
  return (
    <>
      <TextField
        form={form}
        name={"password" as Path<T>}
        label="New password"
        description="At least 8 characters; avoid passwords you use elsewhere."
        type="password"
        autoComplete="new-password"
      />
      <TextField
        form={form}
        name={"confirm" as Path<T>}
        label="Confirm new password"
        type="password"
        autoComplete="new-password"
      />
    </>
  );
}
