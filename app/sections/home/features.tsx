import { Container } from "../../components/layout/container.tsx";
import { FeatureCarousel } from "../../components/home/feature-carousel.tsx";
import type { FeatureItem } from "../../content/types.ts";
import { Island } from "../../islands/island.tsx";
import { SectionHeading } from "../section-heading.tsx";

/** "Put your best foot forward": the clickable feature list and its looping image carousel. */
export function Features({
  title,
  lead,
  features,
}: {
  title: string;
  lead: string;
  features: FeatureItem[];
}) {
  return (
    <section aria-labelledby="features-title" className="bg-slate-50 py-20 sm:py-28">
      <Container>
        <SectionHeading
          id="features-title"
          title={title}
          lead={lead}
          className="[&_h2]:text-balance"
        />
        <div className="mt-14">
          <Island
            name="feature-carousel"
            component={FeatureCarousel}
            props={{ features, label: "Revwise features" }}
            hydrate="visible"
          />
        </div>
      </Container>
    </section>
  );
}
