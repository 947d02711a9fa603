import { pages } from "../content/pages.ts";
import { pageMeta } from "../lib/meta.ts";
import { PageHero } from "../sections/page-hero.tsx";

export const meta = () => pageMeta(pages.requestDemo);

export default function Page() {
  return <PageHero eyebrow="Demo" title="Request Demo" lead={pages.requestDemo.description} />;
}
