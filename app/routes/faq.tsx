import { FaqHighlight } from "../components/pages/faq-highlight.tsx";
import { faqs } from "../content/faq.ts";
import { pages } from "../content/pages.ts";
import { Island } from "../islands/island.tsx";
import { JsonLd } from "../lib/json-ld.tsx";
import { pageMeta } from "../lib/meta.ts";
import { PageHero } from "../sections/page-hero.tsx";
import { FaqAccordion, FaqLayout, FaqStillQuestions } from "../sections/pages/faq.tsx";
import { ProductCtas } from "../sections/products/product-hero.tsx";

export const meta = () => pageMeta(pages.faq);

const LIST_HEADING_ID = "faq-questions";

export default function Page() {
  const highlighted = faqs.find((item) => item.isSpecial);
  return (
    <>
      <PageHero eyebrow="FAQ" title="Frequently asked questions" lead={pages.faq.description} />
      <FaqLayout aside={<FaqStillQuestions />}>
        {highlighted && (
          <Island
            name="faq-highlight"
            component={FaqHighlight}
            props={{
              question: highlighted.question,
              answer: highlighted.answer,
              focusAfterDismissId: LIST_HEADING_ID,
            }}
            hydrate="interaction"
          />
        )}
        <FaqAccordion
          items={faqs}
          headingId={LIST_HEADING_ID}
          title="All questions"
          nextSteps={<ProductCtas className="mx-0 mt-5 sm:justify-start" />}
        />
      </FaqLayout>
      <JsonLd
        data={{
          "@type": "FAQPage",
          mainEntity: faqs.map((item) => ({
            "@type": "Question",
            name: item.question,
            acceptedAnswer: { "@type": "Answer", text: item.answer },
          })),
        }}
      />
    </>
  );
}
