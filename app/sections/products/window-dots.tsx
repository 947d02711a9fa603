import { cn } from "../../lib/cn.ts";

/** The three dots that make a product mock-up's title bar read as an app window. */
export function WindowDots({ className }: { className?: string }) {
  return (
    <span aria-hidden="true" className={cn("flex gap-1.5", className)}>
      <span className="size-2.5 rounded-full bg-slate-200" />
      <span className="size-2.5 rounded-full bg-slate-200" />
      <span className="size-2.5 rounded-full bg-slate-200" />
    </span>
  );
}
