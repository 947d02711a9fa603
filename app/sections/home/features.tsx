import { FeatureCarousel } from "../../components/home/feature-carousel.tsx";
import type { FeatureItem } from "../../content/types.ts";
import { Island } from "../../islands/island.tsx";
import { HeadedSection } from "../section-heading.tsx";

/** "Put your best foot forward": the clickable feature list and its looping image carousel. */
export function Features({
  title,
  lead,
  hint,
  features,
}: {
  title: string;
  lead: string;
  hint: string;
  features: FeatureItem[];
}) {
  return (
    <HeadedSection
      id="features-title"
      className="bg-slate-50 py-20 sm:py-28"
      title={title}
      lead={
        <>
          {lead} <span className="noscript:hidden">{hint}</span>
        </>
      }
    >
      <div className="mt-14">
        <Island
          name="feature-carousel"
          component={FeatureCarousel}
          props={{ features, label: "Revwise features" }}
          hydrate="visible"
        />
      </div>
    </HeadedSection>
  );
}
