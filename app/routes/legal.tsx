import { useLoaderData } from "react-router";
import { Container } from "../components/layout/container.tsx";
import { legalDoc } from "../content/legal-docs.ts";
import { pages } from "../content/pages.ts";
import { formatLongDate } from "../lib/dates.ts";
import { pageMeta } from "../lib/meta.ts";
import { PageHero } from "../sections/page-hero.tsx";
import type { Route } from "./+types/legal";

const byPath = {
  "/terms-of-service": pages.terms,
  "/privacy-policy": pages.privacy,
  "/cookies-policy": pages.cookies,
} as const;
type LegalPath = keyof typeof byPath;

export function loader({ request }: Route.LoaderArgs) {
  const path = new URL(request.url).pathname as LegalPath;
  return { path, doc: legalDoc(path.slice(1)) };
}

export const meta = ({ data }: Route.MetaArgs) => pageMeta(byPath[data!.path]);

export default function Legal() {
  const { doc } = useLoaderData<typeof loader>();
  return (
    <>
      <PageHero eyebrow="Legal" title={doc.title} lead={doc.summary}>
        <p className="mt-4 text-sm text-muted-foreground">
          Last updated: {formatLongDate(doc.updated)}
        </p>
      </PageHero>
      <Container className="py-12">
        <article
          className="prose mx-auto max-w-3xl"
          dangerouslySetInnerHTML={{ __html: doc.html }}
        />
      </Container>
    </>
  );
}
