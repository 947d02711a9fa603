// Carousel primitives in shadcn v4 style, on embla. Keyboard: ← and → move between slides when
// the carousel (or anything in it) has focus. Reduced motion: slides jump instead of gliding.
// Without JavaScript (the `noscript:` variant, CSS `scripting: none`) the slides are stacked, every
// one readable, and the controls, which need script, are not shown.
import useEmblaCarousel, { type UseEmblaCarouselType } from "embla-carousel-react";
import * as React from "react";
import { cn } from "../../lib/cn.ts";
import { prefersReducedMotion } from "../../lib/reduced-motion.ts";
import { Button } from "./button.tsx";
import { Icon } from "./icon.tsx";

export type CarouselApi = UseEmblaCarouselType[1];
type CarouselOptions = Parameters<typeof useEmblaCarousel>[0];

type CarouselContextValue = {
  carouselRef: UseEmblaCarouselType[0];
  api: CarouselApi;
  selected: number;
  count: number;
  canScrollPrev: boolean;
  canScrollNext: boolean;
  scrollPrev: () => void;
  scrollNext: () => void;
  scrollTo: (index: number) => void;
};

const CarouselContext = React.createContext<CarouselContextValue | null>(null);

export function useCarousel() {
  const context = React.useContext(CarouselContext);
  if (!context) throw new Error("useCarousel must be used within a <Carousel />");
  return context;
}

export function Carousel({
  opts,
  setApi,
  className,
  children,
  label,
  ...props
}: React.ComponentProps<"div"> & {
  opts?: CarouselOptions;
  setApi?: (api: CarouselApi) => void;
  label: string;
}) {
  const [carouselRef, api] = useEmblaCarousel({ ...opts, axis: "x" });
  const [state, setState] = React.useState({
    selected: 0,
    count: 0,
    canScrollPrev: false,
    canScrollNext: false,
  });

  React.useEffect(() => {
    if (!api) return;
    setApi?.(api);
    const sync = () =>
      setState({
        selected: api.selectedScrollSnap(),
        count: api.scrollSnapList().length,
        canScrollPrev: api.canScrollPrev(),
        canScrollNext: api.canScrollNext(),
      });
    sync();
    api.on("select", sync).on("reInit", sync);
    return () => {
      api.off("select", sync).off("reInit", sync);
    };
  }, [api, setApi]);

  const whenStarted = useWhenStarted(api);
  const jump = prefersReducedMotion();
  const scrollPrev = React.useCallback(
    () => whenStarted((started) => started.scrollPrev(jump)),
    [whenStarted, jump],
  );
  const scrollNext = React.useCallback(
    () => whenStarted((started) => started.scrollNext(jump)),
    [whenStarted, jump],
  );
  const scrollTo = React.useCallback(
    (index: number) => whenStarted((started) => started.scrollTo(index, jump)),
    [whenStarted, jump],
  );

  const onKeyDown = (event: React.KeyboardEvent<HTMLDivElement>) => {
    if (event.key === "ArrowLeft") {
      event.preventDefault();
      scrollPrev();
    } else if (event.key === "ArrowRight") {
      event.preventDefault();
      scrollNext();
    }
  };

  return (
    <CarouselContext.Provider
      value={{ carouselRef, api, ...state, scrollPrev, scrollNext, scrollTo }}
    >
      <div
        data-slot="carousel"
        role="region"
        aria-roledescription="carousel"
        aria-label={label}
        tabIndex={0}
        // ← and → pressed before the island's code runs are held and replayed (islands/held-events).
        data-held-keys="ArrowLeft ArrowRight"
        onKeyDownCapture={onKeyDown}
        className={cn("relative rounded-xl", className)}
        {...props}
      >
        {children}
      </div>
    </CarouselContext.Provider>
  );
}

type StartedApi = NonNullable<CarouselApi>;

/**
 * Runs a move on the carousel now, or as soon as embla has started. The click that wakes an
 * island is replayed as it hydrates, before embla starts (in an effect): without this, the
 * visitor's first press of a slide's control right after the page loads would do nothing. Call it
 * after the effect that follows embla's "select", so the move is seen there.
 */
export function useWhenStarted(api: CarouselApi) {
  // Every press made before the start counts, in order (two presses of Next move twice).
  const pending = React.useRef<((started: StartedApi) => void)[]>([]);
  React.useEffect(() => {
    if (!api) return;
    for (const move of pending.current.splice(0)) move(api);
  }, [api]);
  return React.useCallback(
    (move: (started: StartedApi) => void) => {
      if (api) move(api);
      else pending.current.push(move);
    },
    [api],
  );
}

export function CarouselContent({ className, ...props }: React.ComponentProps<"div">) {
  const { carouselRef } = useCarousel();
  return (
    <div ref={carouselRef} className="overflow-hidden rounded-xl" data-slot="carousel-content">
      <div className={cn("-ml-4 flex noscript:flex-col noscript:gap-8", className)} {...props} />
    </div>
  );
}

export function CarouselItem({
  className,
  index,
  total,
  ...props
}: React.ComponentProps<"div"> & { index: number; total: number }) {
  const { selected, count } = useCarousel();
  // Slides out of view are hidden from assistive technology once the carousel runs; before (in
  // the prerendered HTML, and for good without JavaScript) every slide is there to be read.
  const away = count > 0 && selected !== index;
  return (
    <div
      role="group"
      aria-roledescription="slide"
      aria-label={`${index + 1} of ${total}`}
      aria-hidden={away ? true : undefined}
      data-slot="carousel-item"
      className={cn("min-w-0 shrink-0 grow-0 basis-full pl-4 noscript:basis-auto", className)}
      {...props}
    />
  );
}

export function CarouselPrevious({ className, ...props }: React.ComponentProps<typeof Button>) {
  const { scrollPrev, canScrollPrev } = useCarousel();
  return (
    <Button
      type="button"
      data-slot="carousel-previous"
      variant="outline"
      size="icon"
      className={cn("rounded-full noscript:hidden", className)}
      disabled={!canScrollPrev}
      onClick={scrollPrev}
      {...props}
    >
      <Icon name="chevron-left" />
      <span className="sr-only">Previous slide</span>
    </Button>
  );
}

export function CarouselNext({ className, ...props }: React.ComponentProps<typeof Button>) {
  const { scrollNext, canScrollNext } = useCarousel();
  return (
    <Button
      type="button"
      data-slot="carousel-next"
      variant="outline"
      size="icon"
      className={cn("rounded-full noscript:hidden", className)}
      disabled={!canScrollNext}
      onClick={scrollNext}
      {...props}
    >
      <Icon name="chevron-right" />
      <span className="sr-only">Next slide</span>
    </Button>
  );
}

/** One dot per slide; the current one is marked for assistive technology too. */
export function CarouselDots({ className, total }: { className?: string; total: number }) {
  const { selected, scrollTo } = useCarousel();
  return (
    <div
      data-slot="carousel-dots"
      className={cn("flex items-center justify-center gap-1 noscript:hidden", className)}
    >
      {Array.from({ length: total }, (_, i) => (
        <button
          key={i}
          type="button"
          aria-label={`Go to slide ${i + 1}`}
          aria-current={selected === i ? "true" : undefined}
          onClick={() => scrollTo(i)}
          className="grid size-6 place-items-center rounded-full"
        >
          <span
            className={cn(
              "block size-2.5 rounded-full transition-colors",
              selected === i ? "bg-primary" : "bg-slate-300 hover:bg-slate-400",
            )}
          />
        </button>
      ))}
    </div>
  );
}
