// Three testimonials, one at a time, with previous/next that wrap around at both ends.
// The quote region is a polite live region: a new quote is read once it is shown. Without
// JavaScript every quote is shown, one under the other, and previous/next are hidden.
import * as React from "react";
import type { Testimonial } from "../../content/types.ts";
import { cn } from "../../lib/cn.ts";
import { Button } from "../ui/button.tsx";
import { Icon } from "../ui/icon.tsx";

export function TestimonialRotator({ testimonials }: { testimonials: Testimonial[] }) {
  const [index, setIndex] = React.useState(0);
  const total = testimonials.length;
  const current = testimonials[index];
  if (!current) return null;
  const go = (step: number) => setIndex((i) => (i + step + total) % total);

  return (
    <div className="mx-auto max-w-4xl">
      <div className="rounded-3xl border border-border bg-white px-6 py-8 shadow-sm sm:px-12 sm:py-12">
        <Icon name="quote" className="mb-5 size-9 text-indigo-300" />
        {/* Every quote sits in the same grid cell (only the current one visible, the others
            visibility: hidden), so the card keeps the height of the longest quote and nothing below
            moves when the quote changes. Without JavaScript they are shown in turn below it. */}
        <div className="grid noscript:gap-8">
          <div aria-live="polite" className="col-start-1 row-start-1">
            <Quote testimonial={current} />
          </div>
          {testimonials.map((t, i) => (
            <div
              key={t.id}
              className={cn(
                "invisible col-start-1 row-start-1",
                "noscript:visible noscript:col-auto noscript:row-auto noscript:border-t noscript:border-border noscript:pt-8",
                i === index && "hidden",
              )}
            >
              <Quote testimonial={t} />
            </div>
          ))}
        </div>
      </div>
      <div className="mt-6 flex items-center justify-center gap-4 noscript:hidden">
        <Button variant="outline" size="icon" className="rounded-full" onClick={() => go(-1)}>
          <Icon name="chevron-left" />
          <span className="sr-only">Previous testimonial</span>
        </Button>
        <p className="min-w-12 text-center text-sm font-medium text-slate-700 tabular-nums">
          <span className="sr-only">Testimonial </span>
          {index + 1} <span aria-hidden="true">/</span>
          <span className="sr-only"> of </span> {total}
        </p>
        <Button variant="outline" size="icon" className="rounded-full" onClick={() => go(1)}>
          <Icon name="chevron-right" />
          <span className="sr-only">Next testimonial</span>
        </Button>
      </div>
    </div>
  );
}

function Quote({ testimonial }: { testimonial: Testimonial }) {
  return (
    <figure className="flex h-full flex-col">
      <blockquote className="text-lg leading-8 font-medium text-ink sm:text-xl sm:leading-9">
        <p>“{testimonial.quote}”</p>
      </blockquote>
      <figcaption className="mt-auto flex items-center gap-4 pt-8">
        <img
          src={testimonial.image}
          alt=""
          width={56}
          height={56}
          loading="lazy"
          decoding="async"
          className="size-14 rounded-full bg-indigo-50 ring-2 ring-white shadow-sm"
        />
        <span>
          <span className="block font-semibold text-ink">{testimonial.name}</span>
          <span className="block text-sm text-slate-700">
            {testimonial.role} · {testimonial.company}
          </span>
        </span>
      </figcaption>
    </figure>
  );
}
