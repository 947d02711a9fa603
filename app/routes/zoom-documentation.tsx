import { Container } from "../components/layout/container.tsx";
import { Icon } from "../components/ui/icon.tsx";
import { pages } from "../content/pages.ts";
import { zoomGuide } from "../content/zoom.ts";
import { pageMeta } from "../lib/meta.ts";
import { PageHero } from "../sections/page-hero.tsx";
import { ZoomAside, ZoomSteps, ZoomTroubleshooting } from "../sections/pages/zoom.tsx";

export const meta = () => pageMeta(pages.zoom);

export default function Page() {
  return (
    <>
      <PageHero eyebrow="Documentation" title={zoomGuide.title} lead={zoomGuide.lead}>
        <p className="mt-6 inline-flex items-center gap-2 rounded-full border border-border bg-white px-3 py-1.5 text-sm font-medium text-slate-700">
          <Icon name="clock" className="size-4 text-primary" />
          {zoomGuide.steps.length} steps · about five minutes
        </p>
      </PageHero>
      <Container className="grid gap-12 py-12 sm:py-16 lg:grid-cols-[minmax(0,1fr)_20rem] lg:gap-16">
        <ZoomAside />
        <div className="lg:col-start-1 lg:row-start-1">
          <ZoomSteps steps={zoomGuide.steps} />
          <ZoomTroubleshooting items={zoomGuide.troubleshooting} />
          <p className="mt-12 rounded-2xl border border-indigo-100 bg-indigo-50 p-6 leading-7 text-slate-700">
            Setting up your CRM, calendar or recording rules as well? The{" "}
            <a
              href="/documentation"
              className="font-semibold text-primary underline underline-offset-4 hover:text-indigo-900"
            >
              Revwise documentation
            </a>{" "}
            covers every integration and setting.
          </p>
        </div>
      </Container>
    </>
  );
}
