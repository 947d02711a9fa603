// The showcase product's screenshots, as the carousel island (hydrated when it comes into view).
// The first slide is above the fold (it may be the LCP): the page preloads it with high priority.
import { preload } from "react-dom";
import { ProductCarousel } from "../../components/products/product-carousel.tsx";
import type { ShowcaseProduct } from "../../content/types.ts";
import { Island } from "../../islands/island.tsx";

export function ShowcaseCarousel({ product }: { product: ShowcaseProduct }) {
  const [first] = product.slides;
  if (first) preload(first.src, { as: "image", fetchPriority: "high" });
  const slides = product.slides.map(({ src, alt, width, height, caption }) => ({
    src,
    alt,
    width,
    height,
    caption,
  }));
  return (
    <Island
      name="product-carousel"
      component={ProductCarousel}
      props={{ label: `${product.name} screenshots`, slides }}
      hydrate="visible"
      // A box of its own: the island's markup starts with React's <link rel=preload> of the eager
      // first slide, and "visible" observes the first child of a display: contents wrapper.
      className="mx-auto block w-full max-w-[811px]"
    />
  );
}
