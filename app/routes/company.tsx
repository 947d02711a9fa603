import { companyIntro, mission, values, vision } from "../content/company.ts";
import { pages } from "../content/pages.ts";
import { advisors, team } from "../content/people.ts";
import { JsonLd, organizationLd } from "../lib/json-ld.tsx";
import { pageMeta } from "../lib/meta.ts";
import { PageHero } from "../sections/page-hero.tsx";
import {
  CompanyAdvisors,
  CompanyStory,
  CompanyTeam,
  CompanyValues,
} from "../sections/pages/company.tsx";
import { CtaBand } from "../sections/pages/cta-band.tsx";

export const meta = () => pageMeta(pages.company);

export default function Page() {
  const founder = team[0];
  return (
    <>
      <PageHero eyebrow="About us" title={companyIntro.title} lead={companyIntro.lead} />
      <CompanyStory story={companyIntro.story} vision={vision} mission={mission} />
      <CompanyValues values={values} />
      <CompanyTeam team={team} />
      <CompanyAdvisors advisors={advisors} />
      <CtaBand
        title="See Revwise on your own sales process"
        text="Book a 30-minute demo with our team, or send us a message with your questions."
        secondary={{ label: "Contact us", href: "/contact" }}
      />
      <JsonLd
        data={{
          ...organizationLd(),
          ...(founder
            ? { founder: { "@type": "Person", name: founder.name, jobTitle: founder.role } }
            : {}),
          employee: team.map((p) => ({
            "@type": "Person",
            name: p.name,
            jobTitle: p.role,
            ...(p.linkedin ? { sameAs: [p.linkedin] } : {}),
          })),
        }}
      />
    </>
  );
}
