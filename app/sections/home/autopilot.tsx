import { AutopilotCarousel } from "../../components/home/autopilot-carousel.tsx";
import type { FeatureItem } from "../../content/types.ts";
import { Island } from "../../islands/island.tsx";
import { HeadedSection } from "../section-heading.tsx";

/** "Your CRM on Autopilot": one slide per CRM in the default (non-looping) carousel. */
export function Autopilot({
  title,
  lead,
  slides,
}: {
  title: string;
  lead: string;
  slides: FeatureItem[];
}) {
  return (
    <HeadedSection
      id="autopilot-title"
      className="bg-gradient-to-b from-indigo-50/70 to-white py-20 sm:py-28"
      title={title}
      lead={lead}
    >
      <div className="mt-14">
        <Island
          name="autopilot-carousel"
          component={AutopilotCarousel}
          props={{ slides, label: "CRM integrations" }}
          hydrate="visible"
        />
      </div>
    </HeadedSection>
  );
}
