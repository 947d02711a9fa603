import { useLoaderData } from "react-router";
import { loadDocument } from "../content/documents.ts";
import { pages } from "../content/pages.ts";
import { formatLongDate } from "../lib/dates.ts";
import { pageMeta } from "../lib/meta.ts";
import { PageHero } from "../sections/page-hero.tsx";
import { DocLayout, SideBlock } from "../sections/pages/docs.tsx";
import { Prose } from "../sections/pages/prose.tsx";

/** Runs at build time: content/docs/documentation.md, rendered, with ids on its headings. */
export function loader() {
  return { doc: loadDocument("docs/documentation") };
}

export const meta = () => pageMeta(pages.documentation);

export default function Documentation() {
  const { doc } = useLoaderData<typeof loader>();
  return (
    <>
      <PageHero eyebrow="Documentation" title={doc.title} lead={doc.summary}>
        <p className="mt-4 text-sm text-slate-600">
          Last updated: <time dateTime={doc.updated}>{formatLongDate(doc.updated)}</time>
        </p>
      </PageHero>
      <DocLayout
        toc={doc.toc}
        extras={
          <SideBlock title="Connecting Zoom?">
            <p className="text-sm leading-6 text-slate-700">
              Follow the{" "}
              <a
                href="/zoom-documentation"
                className="font-semibold text-primary underline underline-offset-4 hover:text-indigo-900"
              >
                Zoom guide
              </a>
              : five steps, about five minutes.
            </p>
          </SideBlock>
        }
      >
        <article aria-label={doc.title}>
          <Prose html={doc.html} className="max-w-3xl [&>h2:first-child]:mt-0" />
        </article>
      </DocLayout>
    </>
  );
}
