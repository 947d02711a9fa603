// A form field: label, control, optional description and error message, wired together with
// id, aria-invalid and aria-describedby (the control is given those props through render).
import { useId } from "react";
import type * as React from "react";
import { cn } from "../../lib/cn.ts";
import { Label } from "./label.tsx";

type ControlProps = { id: string; "aria-invalid": boolean; "aria-describedby"?: string };

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
