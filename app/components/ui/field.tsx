// A form field: label, control, optional description and error message, wired together with
// id, aria-invalid and aria-describedby (the control is given those props through render).
import { useId } from "react";
import type * as React from "react";
import { cn } from "../../lib/cn.ts";
import { Label } from "./input.tsx";

export type ControlProps = { id: string; "aria-invalid": boolean; "aria-describedby"?: string };

export function Field({
  label,
  error,
  description,
  className,
  optional,
  children,
}: {
  label: string;
  error?: string;
  description?: string;
  className?: string;
  optional?: boolean;
  children: (control: ControlProps) => React.ReactNode;
}) {
  const id = useId();
  const descriptionId = description ? `${id}-description` : undefined;
  const errorId = error ? `${id}-error` : undefined;
  const describedBy = [descriptionId, errorId].filter(Boolean).join(" ") || undefined;
  return (
    <div data-slot="field" className={cn("grid gap-1.5", className)}>
      <Label htmlFor={id}>
        {label}
        {optional && <span className="font-normal text-muted-foreground"> (optional)</span>}
      </Label>
      {children({ id, "aria-invalid": Boolean(error), "aria-describedby": describedBy })}
      {description && (
        <p id={descriptionId} className="text-sm text-muted-foreground">
          {description}
        </p>
      )}
      {error && (
        <p id={errorId} className="text-sm font-medium text-destructive">
          {error}
        </p>
      )}
    </div>
  );
}

/** A field people never see; bots that fill it give themselves away (see common/leads.ts). */
export function Honeypot({
  name,
  inputRef,
}: {
  name: string;
  inputRef: React.Ref<HTMLInputElement>;
}) {
  return (
    <div aria-hidden="true" className="absolute -left-[9999px] h-px w-px overflow-hidden">
      <label>
        Leave this empty
        <input
          ref={inputRef}
          type="text"
          tabIndex={-1}
          autoComplete="off"
          name={name}
          defaultValue=""
        />
      </label>
    </div>
  );
}
