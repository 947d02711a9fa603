import { pages } from "../content/pages.ts";
import { useCases, useCasesIntro } from "../content/use-cases.ts";
import { pageMeta } from "../lib/meta.ts";
import { PageHero } from "../sections/page-hero.tsx";
import { CtaBand } from "../sections/pages/cta-band.tsx";
import { UseCaseList, UseCaseNav } from "../sections/pages/use-cases.tsx";

export const meta = () => pageMeta(pages.useCases);

export default function Page() {
  return (
    <>
      <PageHero eyebrow="Use cases" title={useCasesIntro.title} lead={useCasesIntro.lead}>
        <UseCaseNav useCases={useCases} />
      </PageHero>
      <div className="bg-slate-50">
        <UseCaseList useCases={useCases} />
      </div>
      <CtaBand
        title="See it with your own pipeline"
        text="In a 30-minute demo we connect a calendar and a sandbox CRM and capture a real call, so you see Revwise on your own sales process."
      />
    </>
  );
}
