// "Your CRM on Autopilot": the default carousel (no loop: the arrows stop at the ends, dots below).
// Without JavaScript the slides are stacked and the controls hidden (carousel primitive).
import type { FeatureItem } from "../../content/types.ts";
import { Carousel, CarouselContent, CarouselDots, CarouselItem } from "../ui/carousel.tsx";
import { CarouselArrows } from "./carousel-arrows.tsx";
import { Mockup } from "../ui/mockup.tsx";

export function AutopilotCarousel({ slides, label }: { slides: FeatureItem[]; label: string }) {
  return (
    <Carousel label={label}>
      <CarouselContent>
        {slides.map((slide, i) => (
          <CarouselItem key={slide.title} index={i} total={slides.length}>
            {/* On a phone the card's padding is narrow, so the mock-up's focus fits at its own size. */}
            <div className="grid h-full items-center gap-6 rounded-3xl border border-border bg-white p-3 shadow-sm sm:gap-8 sm:p-8 lg:grid-cols-[minmax(0,7fr)_minmax(0,5fr)] lg:gap-10">
              <Mockup
                image={slide.image}
                loading="lazy"
                decoding="async"
                className="h-auto w-full rounded-xl bg-slate-50 ring-1 ring-slate-900/10"
              />
              <div className="px-2 pb-3 sm:p-0">
                <p className="text-sm font-semibold text-primary tabular-nums">
                  {String(i + 1).padStart(2, "0")} / {String(slides.length).padStart(2, "0")}
                </p>
                <h3 className="mt-2 text-2xl font-bold tracking-tight text-ink">{slide.title}</h3>
                <p className="mt-3 leading-7 text-slate-700">{slide.description}</p>
              </div>
            </div>
          </CarouselItem>
        ))}
      </CarouselContent>
      <div className="mt-6 flex items-center justify-center gap-4 noscript:hidden">
        <CarouselArrows total={slides.length}>
          <CarouselDots total={slides.length} />
        </CarouselArrows>
      </div>
    </Carousel>
  );
}
