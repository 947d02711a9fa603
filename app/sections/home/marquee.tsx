import { cn } from "../../lib/cn.ts";

/**
 * The animation banner: the phrases glide from right to left in a seamless loop (the list is
 * drawn twice and the track moves by half its width). Pure CSS: it pauses on hover and with its
 * own "Pause" switch (a checkbox, WCAG 2.2.2), and stands still under prefers-reduced-motion.
 */
export function Marquee({ phrases, label }: { phrases: string[]; label: string }) {
  const list = (hidden: boolean) => (
    <ul
      aria-label={hidden ? undefined : label}
      aria-hidden={hidden || undefined}
      className="flex shrink-0 items-center gap-4 pr-4"
    >
      {phrases.map((phrase) => (
        <li
          key={phrase}
          className="flex items-center gap-2.5 rounded-full border border-white/10 bg-white/5 px-4 py-2 text-sm font-medium whitespace-nowrap text-slate-200"
        >
          <svg
            viewBox="0 0 16 16"
            width="16"
            height="16"
            aria-hidden="true"
            className="size-4 text-teal-300"
          >
            <path
              d="M3.5 8.5l3 3 6-7"
              fill="none"
              stroke="currentColor"
              strokeWidth="2"
              strokeLinecap="round"
              strokeLinejoin="round"
            />
          </svg>
          {phrase}
        </li>
      ))}
    </ul>
  );
  return (
    <div className="group/marquee relative bg-ink py-5">
      <div className="overflow-hidden [mask-image:linear-gradient(to_right,transparent,black_6%,black_94%,transparent)]">
        <div
          className={cn(
            "flex w-max animate-marquee",
            "group-hover/marquee:[animation-play-state:paused] group-has-checked/marquee:[animation-play-state:paused]",
          )}
        >
          {list(false)}
          {list(true)}
        </div>
      </div>
      <label className="absolute top-1/2 right-2 flex min-h-7 -translate-y-1/2 cursor-pointer items-center gap-1.5 rounded-full bg-ink px-3 py-1 text-xs font-semibold text-slate-200 shadow-[-16px_0_16px_var(--color-ink)] ring-1 ring-white/20 hover:text-white has-checked:bg-white has-checked:text-ink has-focus-visible:outline-3 has-focus-visible:outline-offset-2 has-focus-visible:outline-white motion-reduce:hidden sm:right-4">
        <input type="checkbox" className="sr-only" />
        <svg viewBox="0 0 16 16" width="12" height="12" aria-hidden="true" className="size-3">
          <path
            d="M5 3.5v9M11 3.5v9"
            stroke="currentColor"
            strokeWidth="2.2"
            strokeLinecap="round"
          />
        </svg>
        Pause<span className="sr-only"> the moving banner</span>
      </label>
    </div>
  );
}
