import { useLoaderData } from "react-router";
import { loadDocument } from "../content/documents.ts";
import { pages } from "../content/pages.ts";
import { pageMeta } from "../lib/meta.ts";
import { DocumentPage, SideBlock } from "../sections/pages/docs.tsx";

/** Runs at build time: content/docs/documentation.md, rendered, with ids on its headings. */
export function loader() {
  return { doc: loadDocument("docs/documentation") };
}

export const meta = () => pageMeta(pages.documentation);

export default function Documentation() {
  const { doc } = useLoaderData<typeof loader>();
  return (
    <DocumentPage
      eyebrow="Documentation"
      doc={doc}
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
    />
  );
}
