import { Container } from "../components/layout/container.tsx";
import { contactIntro, contactReasons } from "../content/contact-page.ts";
import { pages } from "../content/pages.ts";
import { contact } from "../content/site.ts";
import { ContactForm } from "../forms/contact-form.tsx";
import { Island } from "../islands/island.tsx";
import { pageMeta } from "../lib/meta.ts";
import { PageHero } from "../sections/page-hero.tsx";
import { ContactDetails, ContactReasons } from "../sections/pages/contact.tsx";
import { FormCard } from "../sections/pages/form-card.tsx";

export const meta = () => pageMeta(pages.contact);

export default function Page() {
  return (
    <>
      <PageHero eyebrow="Contact" title={contactIntro.title} lead={contactIntro.lead} />
      <Container className="py-12 sm:py-16">
        <div className="grid grid-cols-1 items-start gap-8 lg:grid-cols-[minmax(0,2fr)_minmax(0,3fr)] lg:gap-12">
          <ContactDetails contact={contact} />
          <FormCard
            titleId="contact-form-title"
            title="Send us a message"
            lead="Tell us what you need and we will reply within one business day."
          >
            <Island name="contact-form" component={ContactForm} props={{}} hydrate="interaction" />
          </FormCard>
        </div>
        <ContactReasons reasons={contactReasons} />
      </Container>
    </>
  );
}
