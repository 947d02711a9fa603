import { pages } from "../content/pages.ts";
import { pageMeta } from "../lib/meta.ts";
import { PageHero } from "../sections/page-hero.tsx";

export const meta = () => pageMeta(pages.resetPassword, { noindex: true });

export default function Page() {
  return (
    <PageHero
      eyebrow="Account"
      title="Choose a new password"
      lead={pages.resetPassword.description}
    />
  );
}
