// Previous/next for the home carousels. Before embla has started (in the prerendered HTML and
// until the island hydrates) the primitive reports "cannot scroll"; here the buttons show the
// state they will have once it runs, so they stay in the tab order and nothing flips on hydration.
import type * as React from "react";
import { CarouselNext, CarouselPrevious, useCarousel } from "../ui/carousel.tsx";

/** `children` (the dots, say) sit between the two buttons. */
export function CarouselArrows({
  total,
  loop = false,
  children,
}: {
  total: number;
  loop?: boolean;
  children?: React.ReactNode;
}) {
  const { count, canScrollPrev, canScrollNext } = useCarousel();
  const started = count > 0;
  return (
    <>
      <CarouselPrevious disabled={started ? !canScrollPrev : !loop || total < 2} />
      {children}
      <CarouselNext disabled={started ? !canScrollNext : total < 2} />
    </>
  );
}
