import { cn } from "../../lib/cn.ts";

/** The Revwise mark and wordmark. */
export function Logo({ className, inverted = false }: { className?: string; inverted?: boolean }) {
  return (
    <span
      data-slot="logo"
      className={cn("inline-flex items-center gap-2 font-bold tracking-tight", className)}
    >
      <svg viewBox="0 0 32 32" width="28" height="28" aria-hidden="true" className="shrink-0">
        <rect width="32" height="32" rx="8" fill={inverted ? "#ffffff" : "#4338ca"} />
        <path
          d="M9 23V9h7.2c3.1 0 5.1 1.8 5.1 4.5 0 2-1.1 3.5-2.9 4.1L22 23h-3.6l-2.9-5h-3.2v5H9Zm3.3-7.8h3.6c1.3 0 2.1-.7 2.1-1.8s-.8-1.8-2.1-1.8h-3.6v3.6Z"
          fill={inverted ? "#4338ca" : "#ffffff"}
        />
        <circle cx="24" cy="9" r="2.5" fill="#2dd4bf" />
      </svg>
      <span className={cn("text-xl", inverted ? "text-white" : "text-ink")}>Revwise</span>
    </span>
  );
}
