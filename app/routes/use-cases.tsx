import { pages } from "../content/pages.ts";
import { pageMeta } from "../lib/meta.ts";
import { PageHero } from "../sections/page-hero.tsx";

export const meta = () => pageMeta(pages.useCases);

export default function Page() {
  return (
    <PageHero
      eyebrow="Use cases"
      title="Built for everyone who carries a number"
      lead={pages.useCases.description}
    />
  );
}
