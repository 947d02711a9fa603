import { pages } from "../content/pages.ts";
import { pageMeta } from "../lib/meta.ts";
import { PageHero } from "../sections/page-hero.tsx";

export const meta = () => pageMeta(pages.integrations);

export default function Page() {
  return (
    <PageHero
      eyebrow="Integrations"
      title="Works with the tools you already use"
      lead={pages.integrations.description}
    />
  );
}
