import type { Logo } from "../content/types.ts";
import { cn } from "../lib/cn.ts";

/**
 * A row of customer logos (grey wordmarks), with an optional small label above them.
 * Below the fold by default: pass `eager` only when the logos are in the first viewport.
 */
export function LogoCloud({
  logos,
  label,
  tone = "light",
  eager = false,
  className,
}: {
  logos: Logo[];
  label?: string;
  tone?: "light" | "dark";
  eager?: boolean;
  className?: string;
}) {
  return (
    <div className={className}>
      {label && (
        <p
          className={cn(
            "text-center text-sm font-semibold",
            tone === "dark" ? "text-slate-300" : "text-slate-600",
          )}
        >
          {label}
        </p>
      )}
      <ul
        aria-label={label ? undefined : "Customers"}
        className={cn(
          "mx-auto grid max-w-5xl grid-cols-2 items-center justify-items-center gap-x-4 gap-y-3 sm:grid-cols-4 sm:gap-x-6 sm:gap-y-4",
          label && "mt-6",
        )}
      >
        {logos.map((logo) => (
          <li key={logo.name}>
            <img
              src={logo.src}
              alt={logo.name}
              width={logo.width}
              height={logo.height}
              loading={eager ? undefined : "lazy"}
              decoding="async"
              className={cn(
                "h-9 w-auto opacity-90 transition-opacity hover:opacity-100 sm:h-12",
                tone === "dark" && "brightness-0 invert",
              )}
            />
          </li>
        ))}
      </ul>
    </div>
  );
}
