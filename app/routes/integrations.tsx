import { integrations, integrationsIntro } from "../content/integrations.ts";
import { pages } from "../content/pages.ts";
import { pageMeta } from "../lib/meta.ts";
import { PageHero } from "../sections/page-hero.tsx";
import { CtaBand } from "../sections/pages/cta-band.tsx";
import { IntegrationGroup } from "../sections/pages/integrations.tsx";

export const meta = () => pageMeta(pages.integrations);

export default function Page() {
  const crm = integrations.filter((tool) => tool.category === "CRM");
  const meetings = integrations.filter((tool) => tool.category === "Calendar and meetings");
  return (
    <>
      <PageHero
        eyebrow="Integrations"
        title={integrationsIntro.title}
        lead={integrationsIntro.lead}
      />
      <IntegrationGroup
        id="crm-title"
        title="CRM"
        lead="An admin connects one CRM per workspace. Revwise writes the updates your sellers approve, and logs every change with its source."
        tools={crm}
        columns={3}
        lazy={false}
      />
      <IntegrationGroup
        id="meetings-title"
        title="Calendar and meetings"
        lead="Each seller connects their own calendar. Revwise finds the customer meetings on it and joins them on Zoom, Microsoft Teams or Google Meet."
        tools={meetings}
        columns={3}
        lazy
        className="border-y border-border bg-slate-50"
      />
      <CtaBand
        title="Set up in an afternoon"
        text="An admin connects the CRM in about 30 minutes; each seller then connects a calendar in five. The documentation walks you through every step."
        secondary={{ label: "Read the documentation", href: "/documentation" }}
      />
    </>
  );
}
