import { pages } from "../content/pages.ts";
import { pageMeta } from "../lib/meta.ts";
import { PageHero } from "../sections/page-hero.tsx";

export const meta = () => pageMeta(pages.company);

export default function Page() {
  return (
    <PageHero
      eyebrow="About us"
      title="We give sellers their time back"
      lead={pages.company.description}
    />
  );
}
