// A form that sends with its script: posted (never a GET that would put a password in the URL) to
// the server's fallback page when the script has not run, else handled by `onSubmit`; the
// browser's own validation is off (the form's schema speaks instead), the form is named.
import type * as React from "react";
import { FORM_FALLBACK_ACTION } from "../../common/site-build.ts";

export function ScriptForm({
  label,
  ...props
}: { label: string } & Omit<React.ComponentProps<"form">, "method" | "action">) {
  return (
    <form method="post" action={FORM_FALLBACK_ACTION} noValidate aria-label={label} {...props} />
  );
}
