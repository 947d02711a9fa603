import type * as React from "react";
import { cn } from "../../lib/cn.ts";
import { controlClass } from "./input.tsx";

export function Textarea({ className, ...props }: React.ComponentProps<"textarea">) {
  return (
    <textarea
      data-slot="textarea"
      className={cn(controlClass, "min-h-32 resize-y", className)}
      {...props}
    />
  );
}
