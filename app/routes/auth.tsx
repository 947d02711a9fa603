import { pages } from "../content/pages.ts";
import { pageMeta } from "../lib/meta.ts";
import { PageHero } from "../sections/page-hero.tsx";

export const meta = () => pageMeta(pages.auth, { noindex: true });

export default function Page() {
  return (
    <PageHero eyebrow="Account" title="Sign in to your account" lead={pages.auth.description} />
  );
}
