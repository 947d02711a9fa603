import { pages } from "../content/pages.ts";
import { pageMeta } from "../lib/meta.ts";
import { PageHero } from "../sections/page-hero.tsx";

export const meta = () => pageMeta(pages.documentation);

export default function Page() {
  return (
    <PageHero
      eyebrow="Documentation"
      title="Revwise documentation"
      lead={pages.documentation.description}
    />
  );
}
