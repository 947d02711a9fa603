import type * as React from "react";
import { cn } from "../../lib/cn.ts";

/**
 * What a page whose work is done by its script says when JavaScript is off (and only then): what
 * needs it, and to turn it on.
 */
export function NoScriptNotice({
  className,
  children,
}: {
  className?: string;
  children: React.ReactNode;
}) {
  return (
    <noscript>
      <p
        data-slot="noscript-notice"
        className={cn("rounded-xl border border-border bg-white p-5 text-slate-700", className)}
      >
        {children}
      </p>
    </noscript>
  );
}
