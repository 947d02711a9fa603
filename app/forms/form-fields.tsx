// Form fields bound to react-hook-form: label, control and error message wired together
// (components/ui/field.tsx), registered under the field name the lead function expects.
import type * as React from "react";
import type { FieldValues, FormState, Path, UseFormRegister } from "react-hook-form";
import { Field } from "../components/ui/field.tsx";
import { Input } from "../components/ui/input.tsx";
import { Select, SelectOptions } from "../components/ui/select.tsx";
import { Textarea } from "../components/ui/textarea.tsx";

// Only what a field needs from useForm's result, so any form's result fits whatever it resolves to.
type BoundForm<T extends FieldValues> = { register: UseFormRegister<T>; formState: FormState<T> };
type Bound<T extends FieldValues> = {
  form: BoundForm<T>;
  name: Path<T>;
  label: string;
  optional?: boolean;
  description?: string;
};

const errorOf = <T extends FieldValues>(form: BoundForm<T>, name: Path<T>) =>
  form.formState.errors[name]?.message as string | undefined;

export function TextField<T extends FieldValues>({
  form,
  name,
  label,
  optional,
  description,
  ...input
}: Bound<T> & Omit<React.ComponentProps<"input">, "form" | "name">) {
  return (
    <Field label={label} optional={optional} description={description} error={errorOf(form, name)}>
      {(p) => <Input {...p} {...form.register(name)} {...input} />}
    </Field>
  );
}

/** The account's current password, asked before a change only its owner may make. */
export function CurrentPasswordField<T extends FieldValues>({
  copy,
  ...field
}: Omit<Bound<T>, "label" | "description"> & {
  copy: { label: string; description: string };
  autoFocus?: boolean;
}) {
  return (
    <TextField
      {...field}
      label={copy.label}
      description={copy.description}
      type="password"
      autoComplete="current-password"
    />
  );
}

export function EmailField<T extends FieldValues>(props: Bound<T> & { placeholder?: string }) {
  return <TextField {...props} type="email" autoComplete="email" inputMode="email" />;
}

export function PhoneField<T extends FieldValues>(props: Bound<T>) {
  return <TextField {...props} type="tel" autoComplete="tel" inputMode="tel" />;
}

export function TextAreaField<T extends FieldValues>({
  form,
  name,
  label,
  optional,
  ...area
}: Bound<T> & Omit<React.ComponentProps<"textarea">, "form" | "name">) {
  return (
    <Field label={label} optional={optional} error={errorOf(form, name)}>
      {(p) => <Textarea {...p} {...form.register(name)} {...area} />}
    </Field>
  );
}

export function SelectField<T extends FieldValues>({
  form,
  name,
  label,
  placeholder,
  options,
}: Bound<T> & { placeholder: string; options: readonly { value: string; label: string }[] }) {
  return (
    <Field label={label} error={errorOf(form, name)}>
      {(p) => (
        <Select {...p} {...form.register(name)}>
          <SelectOptions placeholder={placeholder} options={options} />
        </Select>
      )}
    </Field>
  );
}
