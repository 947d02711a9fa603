import { useLoaderData } from "react-router";
import { Icon } from "../components/ui/icon.tsx";
import { loadDocument } from "../content/documents.ts";
import { legalPages } from "../content/pages.ts";
import { contact } from "../content/site.ts";
import { cn } from "../lib/cn.ts";
import { pagePath } from "../lib/page-path.ts";
import { pageMeta } from "../lib/meta.ts";
import { DocumentPage, SideBlock } from "../sections/pages/docs.tsx";
import type { Route } from "./+types/legal";

function legalAt(path: string) {
  const legal = legalPages.find((l) => l.page.path === path);
  if (!legal) throw new Error(`No legal page at ${path}`);
  return legal;
}

export function loader({ request }: Route.LoaderArgs) {
  const path = pagePath(new URL(request.url).pathname);
  return { path, doc: loadDocument(`legal/${legalAt(path).page.path.slice(1)}`) };
}

export const meta = ({ loaderData: data }: Route.MetaArgs) => pageMeta(legalAt(data!.path).page);

export default function Legal() {
  const { path, doc } = useLoaderData<typeof loader>();
  return (
    <DocumentPage
      eyebrow="Legal"
      doc={doc}
      extras={
        <>
          <SideBlock as="nav" title="Policies">
            <ul role="list" className="space-y-1">
              {legalPages.map(({ page, label }) => (
                <li key={page.path}>
                  <a
                    href={page.path}
                    aria-current={page.path === path ? "page" : undefined}
                    className={cn(
                      "-mx-3 flex min-h-8 items-center rounded-lg px-3 text-sm text-slate-700 hover:bg-secondary hover:text-primary",
                      page.path === path && "bg-secondary font-semibold text-secondary-foreground",
                    )}
                  >
                    {label}
                  </a>
                </li>
              ))}
            </ul>
          </SideBlock>
          <SideBlock title="Questions?" className="mt-8">
            <p className="text-sm leading-6 text-slate-700">Write to us at</p>
            <a
              href={`mailto:${contact.email}`}
              className="mt-1 inline-flex min-h-6 items-center gap-1.5 text-sm font-semibold break-all text-primary underline underline-offset-4 hover:text-indigo-900"
            >
              <Icon name="mail" className="size-4 shrink-0" />
              {contact.email}
            </a>
          </SideBlock>
        </>
      }
    />
  );
}
