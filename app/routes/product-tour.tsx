import { pages } from "../content/pages.ts";
import { tourIntro, tourSteps } from "../content/tour.ts";
import { pageMeta } from "../lib/meta.ts";
import { CtaBand } from "../sections/pages/cta-band.tsx";
import { ProductHero } from "../sections/products/product-hero.tsx";
import { TourSection } from "../sections/products/tour.tsx";

export const meta = () => pageMeta(pages.tour);

/** /product/tour: the hero, the steps (tabs once awake, a list before), then one next step. */
export default function Page() {
  return (
    <>
      <ProductHero eyebrow={tourIntro.eyebrow} title={tourIntro.title} lead={tourIntro.lead} />
      <TourSection steps={tourSteps} />
      <CtaBand
        title="See it on your own deals"
        text="Book a 30-minute demo and we will run Revwise on a call from your own pipeline."
        secondary={{ label: "Compare the products", href: "/product" }}
      />
    </>
  );
}
