import { pages } from "../content/pages.ts";
import { pageMeta } from "../lib/meta.ts";
import { PageHero } from "../sections/page-hero.tsx";

export const meta = () => pageMeta(pages.contact);

export default function Page() {
  return (
    <PageHero eyebrow="Contact" title="Talk to the Revwise team" lead={pages.contact.description} />
  );
}
