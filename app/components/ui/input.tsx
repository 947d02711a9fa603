import type * as React from "react";
import { cn } from "../../lib/cn.ts";

/** The look of every text control (input, textarea, select): border, focus ring, invalid state. */
export const controlClass =
  "w-full min-w-0 rounded-lg border border-input bg-white px-3 py-2 text-base text-foreground shadow-xs transition-colors placeholder:text-slate-500 focus-visible:border-ring focus-visible:outline-3 focus-visible:outline-ring/40 disabled:cursor-not-allowed disabled:opacity-60 aria-invalid:border-destructive aria-invalid:outline-destructive/30 sm:text-sm";

export function Input({ className, ...props }: React.ComponentProps<"input">) {
  return <input data-slot="input" className={cn(controlClass, "h-10", className)} {...props} />;
}
