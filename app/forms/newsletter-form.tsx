// Footer newsletter sign-up (spec §4, §5, §8). The lead issue wires the insert.
import { cn } from "../lib/cn.ts";

export function NewsletterForm({ className }: { className?: string }) {
  return (
    <form className={cn("flex gap-2", className)} onSubmit={(e) => e.preventDefault()}>
      <label htmlFor="newsletter-email" className="sr-only">
        Email address
      </label>
      <input
        id="newsletter-email"
        name="email"
        type="email"
        autoComplete="email"
        placeholder="you@company.com"
        className="h-10 min-w-0 flex-1 rounded-lg border border-white/20 bg-white/10 px-3 text-sm text-white placeholder:text-slate-400"
      />
      <button
        type="submit"
        className="h-10 rounded-lg bg-white px-4 text-sm font-semibold text-ink hover:bg-indigo-50"
      >
        Subscribe
      </button>
    </form>
  );
}
