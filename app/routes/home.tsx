import { customerLogos } from "../content/logos.ts";
import {
  autopilotSection,
  autopilotSlides,
  bannerPhrases,
  closingCta,
  features,
  featuresSection,
  hero,
  memorySection,
  pains,
  painsSection,
} from "../content/home.ts";
import { pages } from "../content/pages.ts";
import { bookDemoUrl } from "../content/site.ts";
import { testimonials, testimonialsSection } from "../content/testimonials.ts";
import { JsonLd, organizationLd } from "../lib/json-ld.tsx";
import { pageMeta } from "../lib/meta.ts";
import { ClosingCta } from "../sections/closing-cta.tsx";
import { Autopilot } from "../sections/home/autopilot.tsx";
import { Marquee } from "../sections/home/marquee.tsx";
import { Features } from "../sections/home/features.tsx";
import { HomeHero } from "../sections/home/hero.tsx";
import { Memory } from "../sections/home/memory.tsx";
import { Pains } from "../sections/home/pains.tsx";
import { Testimonials } from "../sections/testimonials.tsx";

export const meta = () => pageMeta(pages.home);

export default function Home() {
  return (
    <>
      <JsonLd data={organizationLd()} />
      <HomeHero {...hero} logos={customerLogos} logosLabel="Trusted by revenue teams at" />
      <Marquee phrases={bannerPhrases} label="What Revwise does after every call" />
      <Pains {...painsSection} pains={pains} />
      <Features {...featuresSection} features={features} />
      <Memory {...memorySection} />
      <Autopilot {...autopilotSection} slides={autopilotSlides} />
      <Testimonials {...testimonialsSection} testimonials={testimonials} />
      <ClosingCta {...closingCta} bookDemoUrl={bookDemoUrl} />
    </>
  );
}

/** When the home page fails to render it shows plain text. */
export function ErrorBoundary() {
  return (
    <>
      <title>Error loading homepage · Revwise</title>
      <p className="p-8">Error loading homepage</p>
    </>
  );
}
