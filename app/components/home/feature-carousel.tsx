// "Put your best foot forward": a list of features beside a looping carousel of their images.
// Choosing a feature scrolls the carousel to it; swiping or the arrows update the list. Without
// JavaScript the list (its buttons need script) gives way to the slides, stacked, each led by its
// feature's title and description.
import * as React from "react";
import type { FeatureItem } from "../../content/types.ts";
import { cn } from "../../lib/cn.ts";
import { prefersReducedMotion } from "../../lib/reduced-motion.ts";
import {
  Carousel,
  CarouselContent,
  CarouselItem,
  useWhenStarted,
  type CarouselApi,
} from "../ui/carousel.tsx";
import { CarouselArrows } from "./carousel-arrows.tsx";
import { Mockup } from "../ui/mockup.tsx";

/** The feature's number before its title, where the slides are stacked (no JavaScript). */
const CAPTION_NUMBER =
  "grid size-8 shrink-0 place-items-center rounded-full bg-primary text-sm font-bold text-white tabular-nums";

export function FeatureCarousel({ features, label }: { features: FeatureItem[]; label: string }) {
  const [api, setApi] = React.useState<CarouselApi>();
  const [selected, setSelected] = React.useState(0);

  React.useEffect(() => {
    if (!api) return;
    const sync = () => setSelected(api.selectedScrollSnap());
    sync();
    api.on("select", sync).on("reInit", sync);
    return () => {
      api.off("select", sync).off("reInit", sync);
    };
  }, [api]);

  const whenStarted = useWhenStarted(api);
  const choose = (index: number) => {
    setSelected(index);
    whenStarted((started) => started.scrollTo(index, prefersReducedMotion()));
  };

  return (
    <div className="grid items-start gap-10 lg:grid-cols-[minmax(0,5fr)_minmax(0,7fr)] lg:gap-14 noscript:block">
      <ul className="space-y-3 noscript:hidden">
        {features.map((feature, i) => {
          const current = i === selected;
          return (
            <li
              key={feature.title}
              className={cn(
                "relative rounded-2xl border p-5 transition-colors",
                current
                  ? "border-indigo-200 bg-white shadow-md shadow-indigo-900/5"
                  : "border-transparent hover:bg-white/70",
              )}
            >
              <button
                type="button"
                aria-pressed={current}
                onClick={() => choose(i)}
                className="flex w-full items-center gap-4 rounded-lg text-left after:absolute after:inset-0 after:rounded-2xl focus-visible:outline-none focus-visible:after:outline-3 focus-visible:after:outline-offset-2 focus-visible:after:outline-ring"
              >
                <span
                  aria-hidden="true"
                  className={cn(
                    "grid size-8 shrink-0 place-items-center rounded-full text-sm font-bold tabular-nums transition-colors",
                    current ? "bg-primary text-white" : "bg-secondary text-primary",
                  )}
                >
                  {i + 1}
                </span>
                <span
                  className={cn("text-lg font-semibold", current ? "text-ink" : "text-slate-700")}
                >
                  {feature.title}
                </span>
              </button>
              {current && (
                <p className="mt-3 pl-12 leading-7 text-slate-700">{feature.description}</p>
              )}
            </li>
          );
        })}
      </ul>
      <Carousel opts={{ loop: true }} setApi={setApi} label={label}>
        <CarouselContent className="noscript:gap-14">
          {features.map((feature, i) => (
            <CarouselItem key={feature.title} index={i} total={features.length}>
              <div className="noscript:grid noscript:items-center noscript:gap-6 noscript:lg:grid-cols-[minmax(0,5fr)_minmax(0,7fr)] noscript:lg:gap-14">
                <div className="hidden noscript:block">
                  <h3 className="flex items-center gap-4 text-lg font-semibold text-ink">
                    <span aria-hidden="true" className={CAPTION_NUMBER}>
                      {i + 1}
                    </span>
                    {feature.title}
                  </h3>
                  <p className="mt-3 pl-12 leading-7 text-slate-700">{feature.description}</p>
                </div>
                <Mockup
                  image={feature.image}
                  loading="lazy"
                  decoding="async"
                  className="h-auto w-full rounded-xl ring-1 ring-slate-900/10"
                />
              </div>
            </CarouselItem>
          ))}
        </CarouselContent>
        <div className="mt-5 flex items-center justify-between gap-4 noscript:hidden">
          <p className="text-sm font-medium text-slate-700" aria-hidden="true">
            <span className="tabular-nums">
              {selected + 1} / {features.length}
            </span>
            <span className="ml-2 text-ink">{features[selected]?.title}</span>
          </p>
          <div className="flex gap-2">
            <CarouselArrows total={features.length} loop />
          </div>
        </div>
      </Carousel>
    </div>
  );
}
