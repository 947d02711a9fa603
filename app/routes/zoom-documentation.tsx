import { pages } from "../content/pages.ts";
import { pageMeta } from "../lib/meta.ts";
import { PageHero } from "../sections/page-hero.tsx";

export const meta = () => pageMeta(pages.zoom);

export default function Page() {
  return (
    <PageHero
      eyebrow="Documentation"
      title="Connect Zoom to Revwise"
      lead={pages.zoom.description}
    />
  );
}
