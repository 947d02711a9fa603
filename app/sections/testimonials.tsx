import { TestimonialRotator } from "../components/home/testimonial-rotator.tsx";
import type { Logo, Testimonial } from "../content/types.ts";
import { Island } from "../islands/island.tsx";
import { LogoCloud } from "./logo-cloud.tsx";
import { HeadedSection } from "./section-heading.tsx";

/** Testimonials: three quotes with previous/next, then the "Trusted by" claim and logos. */
export function Testimonials({
  title,
  claim,
  testimonials,
  logos,
}: {
  title: string;
  claim: string;
  testimonials: Testimonial[];
  logos: Logo[];
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
      <LogoCloud logos={logos} label={claim} className="mt-16 border-t border-border pt-12" />
    </HeadedSection>
  );
}
