import { TestimonialRotator } from "../components/home/testimonial-rotator.tsx";
import type { Testimonial } from "../content/types.ts";
import { Island } from "../islands/island.tsx";
import { HeadedSection } from "./section-heading.tsx";

/**
 * Testimonials: three quotes with previous/next, then the "Trusted by" claim. The customers' logos
 * are shown once on a page, by the page's hero.
 */
export function Testimonials({
  title,
  claim,
  testimonials,
}: {
  title: string;
  claim: string;
  testimonials: Testimonial[];
}) {
  return (
    <HeadedSection id="testimonials-title" className="bg-slate-50 py-20 sm:py-28" title={title}>
      <div className="mt-12">
        <Island
          name="testimonials"
          component={TestimonialRotator}
          props={{ testimonials }}
          hydrate="visible"
        />
      </div>
      <p className="mt-16 border-t border-border pt-12 text-center text-lg font-semibold text-slate-700">
        {claim}
      </p>
    </HeadedSection>
  );
}
