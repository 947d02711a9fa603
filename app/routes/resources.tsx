// /resources: where the Resources menu leads when it cannot open (no script yet): every page that
// helps people learn and use Revwise.
import { Container } from "../components/layout/container.tsx";
import { pages } from "../content/pages.ts";
import { resourcePages } from "../content/site.ts";
import { pageMeta } from "../lib/meta.ts";
import { PageHero } from "../sections/page-hero.tsx";
import { LinkCard } from "../sections/pages/message-panel.tsx";

export const meta = () => pageMeta(pages.resources);

export default function Page() {
  return (
    <>
      <PageHero eyebrow="Resources" title="Learn Revwise" lead={pages.resources.description} />
      <Container className="py-12 sm:py-16">
        <ul role="list" className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
          {resourcePages.map((link) => (
            <LinkCard
              key={link.href}
              href={link.href}
              icon={link.icon ?? "sparkles"}
              label={link.label}
              description={link.description ?? ""}
            />
          ))}
        </ul>
      </Container>
    </>
  );
}
