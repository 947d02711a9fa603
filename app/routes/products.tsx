import { pages } from "../content/pages.ts";
import { pageMeta } from "../lib/meta.ts";
import { PageHero } from "../sections/page-hero.tsx";

export const meta = () => pageMeta(pages.products);

export default function Page() {
  return (
    <PageHero
      eyebrow="Products"
      title="One assistant, three ways to win deals"
      lead={pages.products.description}
    />
  );
}
