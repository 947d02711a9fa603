import { pages } from "../content/pages.ts";
import { pageMeta } from "../lib/meta.ts";
import { PageHero } from "../sections/page-hero.tsx";

export const meta = () => pageMeta(pages.home);

export default function Home() {
  return <PageHero title="Less CRM admin. Full deal visibility." lead={pages.home.description} />;
}

/** Spec §2: when the home page fails to render it shows plain text. */
export function ErrorBoundary() {
  return (
    <>
      <title>Error loading homepage · Revwise</title>
      <p className="p-8">Error loading homepage</p>
    </>
  );
}
