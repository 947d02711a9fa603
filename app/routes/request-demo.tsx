import { Container } from "../components/layout/container.tsx";
import { pages } from "../content/pages.ts";
import { RequestDemoForm } from "../forms/request-demo-form.tsx";
import { Island } from "../islands/island.tsx";
import { pageMeta } from "../lib/meta.ts";
import { PageHero } from "../sections/page-hero.tsx";
import { FormCard } from "../sections/pages/form-card.tsx";
import { WhatToExpect } from "../sections/pages/request-demo.tsx";

export const meta = () => pageMeta(pages.requestDemo);

export default function Page() {
  return (
    <>
      <PageHero eyebrow="Demo" title="Request Demo" lead={pages.requestDemo.description} />
      <Container className="grid items-start gap-12 py-12 sm:py-16 lg:grid-cols-[minmax(0,1fr)_minmax(0,1.2fr)] lg:gap-16">
        <FormCard
          titleId="demo-form-title"
          title="Tell us about your team"
          lead="We use these details to prepare a demo around your team, your CRM and your sales process."
          className="lg:col-start-2 lg:row-start-1"
        >
          <Island
            name="request-demo-form"
            component={RequestDemoForm}
            props={{}}
            hydrate="interaction"
          />
        </FormCard>
        <div className="lg:col-start-1 lg:row-start-1">
          <WhatToExpect />
        </div>
      </Container>
    </>
  );
}
