// Island "product-carousel": the 779×484 screenshots of a showcase product.
// Not looping: previous is disabled on the first slide, next on the last. ← and → move between
// slides when the carousel has focus; reduced motion makes the slides jump (carousel primitive).
// Without JavaScript the screenshots are stacked, each with its caption, and the controls hidden.
// The first image is eager (above the fold), so React prefixes the island's markup with a
// <link rel=preload>; the island therefore gets a real wrapper box (see showcase-carousel.tsx).
// No fetchPriority here: the page preloads the first slide with high priority from the <head>.
import {
  Carousel,
  CarouselContent,
  CarouselDots,
  CarouselItem,
  CarouselNext,
  CarouselPrevious,
} from "../ui/carousel.tsx";
import { GlowFrame } from "../ui/glow-frame.tsx";
import { Mockup } from "../ui/mockup.tsx";

type ProductSlide = {
  src: string;
  alt: string;
  width: number;
  height: number;
  caption: string;
};

export function ProductCarousel({ label, slides }: { label: string; slides: ProductSlide[] }) {
  const total = slides.length;
  return (
    <Carousel label={label} opts={{ loop: false, align: "start" }} className="w-full">
      <GlowFrame>
        <CarouselContent>
          {slides.map((slide, index) => (
            <CarouselItem key={slide.src} index={index} total={total}>
              <figure>
                <Mockup
                  image={slide}
                  loading={index === 0 ? "eager" : "lazy"}
                  decoding={index === 0 ? undefined : "async"}
                  className="block h-auto w-full rounded-lg bg-indigo-50"
                />
                <figcaption className="mt-4 px-1 text-center text-sm leading-6 text-slate-700 sm:text-base">
                  {slide.caption}
                </figcaption>
              </figure>
            </CarouselItem>
          ))}
        </CarouselContent>
      </GlowFrame>
      <div className="mt-5 flex items-center justify-center gap-4 noscript:hidden">
        <CarouselPrevious />
        <CarouselDots total={total} />
        <CarouselNext />
      </div>
    </Carousel>
  );
}
