import type * as React from "react";
import { cn } from "../../lib/cn.ts";

export const controlClass =
  "w-full min-w-0 rounded-lg border border-input bg-white px-3 py-2 text-base text-foreground shadow-xs transition-colors placeholder:text-slate-500 focus-visible:border-ring focus-visible:outline-3 focus-visible:outline-ring/40 disabled:cursor-not-allowed disabled:opacity-60 aria-invalid:border-destructive aria-invalid:outline-destructive/30 sm:text-sm";

export function Input({ className, ...props }: React.ComponentProps<"input">) {
  return <input data-slot="input" className={cn(controlClass, "h-10", className)} {...props} />;
}

export function Textarea({ className, ...props }: React.ComponentProps<"textarea">) {
  return (
    <textarea
      data-slot="textarea"
      className={cn(controlClass, "min-h-32 resize-y", className)}
      {...props}
    />
  );
}

/** A native select: accessible, keyboard- and phone-friendly, no extra JavaScript. */
export function Select({ className, ...props }: React.ComponentProps<"select">) {
  return (
    <select
      data-slot="select"
      className={cn(
        controlClass,
        "h-10 appearance-none bg-(image:--select-arrow) bg-size-[1rem] bg-position-[right_0.75rem_center] bg-no-repeat pr-9",
        className,
      )}
      {...props}
    />
  );
}

/** A select's choices after a first one that chooses nothing ("Select a size", "All forms"). */
export function SelectOptions({
  placeholder,
  options,
}: {
  placeholder: string;
  options: readonly { value: string; label: string }[];
}) {
  return (
    <>
      <option value="">{placeholder}</option>
      {options.map((o) => (
        <option key={o.value} value={o.value}>
          {o.label}
        </option>
      ))}
    </>
  );
}

export function Label({ className, ...props }: React.ComponentProps<"label">) {
  return (
    <label
      data-slot="label"
      className={cn("text-sm font-medium text-foreground", className)}
      {...props}
    />
  );
}
