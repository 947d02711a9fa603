// /request-access: the request-access form as a page of its own, for links in emails and ads and
// for Request Access buttons clicked before the page's script runs.
import { Container } from "../components/layout/container.tsx";
import { pages } from "../content/pages.ts";
import { RequestAccessForm } from "../forms/request-access-form.tsx";
import { Island } from "../islands/island.tsx";
import { pageMeta } from "../lib/meta.ts";
import { PageHero } from "../sections/page-hero.tsx";
import { FormCard } from "../sections/pages/form-card.tsx";

export const meta = () => pageMeta(pages.requestAccess);

export default function Page() {
  return (
    <>
      <PageHero
        eyebrow="Get started"
        title="Request Access"
        lead={pages.requestAccess.description}
      />
      <Container className="py-12 sm:py-16">
        <FormCard
          titleId="request-access-title"
          title="Tell us about your team"
          lead="We set up your workspace for your CRM and your team size."
          className="mx-auto max-w-2xl"
        >
          <Island
            name="request-access-form"
            component={RequestAccessForm}
            props={{}}
            hydrate="interaction"
          />
        </FormCard>
      </Container>
    </>
  );
}
