// The product tour's steps, as the tour island (woken at load: it turns the list into tabs).
// The first step's screen is above the fold (it may be the LCP): the page preloads it.
import { preload } from "react-dom";
import { Container } from "../../components/layout/container.tsx";
import { ProductTour } from "../../components/products/product-tour.tsx";
import type { TourStep } from "../../content/tour.ts";
import { Island } from "../../islands/island.tsx";

export function TourSection({ steps }: { steps: TourStep[] }) {
  const [first] = steps;
  if (first) preload(first.image.src, { as: "image", fetchPriority: "high" });
  const views = steps.map(({ id, title, summary, points, image }) => ({
    id,
    title,
    summary,
    points,
    image: { src: image.src, alt: image.alt, width: image.width, height: image.height },
  }));
  return (
    <section aria-label="Product tour" className="bg-white py-12 sm:py-16">
      <Container>
        <Island
          name="product-tour"
          component={ProductTour}
          props={{ steps: views }}
          hydrate="load"
          // A box of its own: React may start the markup with a <link rel=preload> of the eager
          // first screen.
          className="block"
        />
      </Container>
    </section>
  );
}
