// A form that sends with its script: posted (never a GET that would put a password in the URL) to
// the server's fallback page when the script has not run, else handled by `onSubmit`; the
// browser's own validation is off (the form's schema speaks instead), the form is named.
// One submission at a time: while the promise `onSubmit` returned is pending, another submission
// (a second press, or held ones replayed together before React renders) is dropped.
import type * as React from "react";
import { useRef } from "react";
import { FORM_FALLBACK_ACTION } from "../../common/site-build.ts";

type Props = { label: string } & Omit<
  React.ComponentProps<"form">,
  "method" | "action" | "onSubmit"
> & {
    onSubmit?: (event: React.FormEvent<HTMLFormElement>) => unknown;
  };

export function ScriptForm({ label, onSubmit, ...props }: Props) {
  const sending = useRef(false);
  const submit = (event: React.FormEvent<HTMLFormElement>) => {
    if (sending.current) return event.preventDefault();
    const result = onSubmit?.(event);
    if (!(result instanceof Promise)) return;
    sending.current = true;
    const done = () => void (sending.current = false);
    result.then(done, done);
  };
  return (
    <form
      method="post"
      action={FORM_FALLBACK_ACTION}
      noValidate
      aria-label={label}
      onSubmit={submit}
      {...props}
    />
  );
}
