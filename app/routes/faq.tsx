import { pages } from "../content/pages.ts";
import { pageMeta } from "../lib/meta.ts";
import { PageHero } from "../sections/page-hero.tsx";

export const meta = () => pageMeta(pages.faq);

export default function Page() {
  return <PageHero eyebrow="FAQ" title="Frequently asked questions" lead={pages.faq.description} />;
}
