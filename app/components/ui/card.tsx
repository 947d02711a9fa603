import type * as React from "react";
import { cn } from "../../lib/cn.ts";

export function Card({ className, ...props }: React.ComponentProps<"div">) {
  return (
    <div
      data-slot="card"
      className={cn("rounded-2xl border border-border bg-card p-6 shadow-sm", className)}
      {...props}
    />
  );
}
