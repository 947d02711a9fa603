import { Slot } from "@radix-ui/react-slot";
import type * as React from "react";
import { cn } from "../../lib/cn.ts";

/** The frame around a product's screenshot: white, a narrow margin, a soft indigo glow under it. */
export function GlowFrame({
  asChild = false,
  className,
  ...props
}: React.ComponentProps<"div"> & { asChild?: boolean }) {
  const Comp = asChild ? Slot : "div";
  return (
    <Comp
      data-slot="glow-frame"
      className={cn(
        "rounded-2xl border border-border bg-white p-2 shadow-xl shadow-indigo-950/10 sm:p-3",
        className,
      )}
      {...props}
    />
  );
}
