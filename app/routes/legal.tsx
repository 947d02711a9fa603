import { useLoaderData } from "react-router";
import { Icon } from "../components/ui/icon.tsx";
import { loadDocument } from "../content/documents.ts";
import { pages } from "../content/pages.ts";
import { contact } from "../content/site.ts";
import { cn } from "../lib/cn.ts";
import { formatLongDate } from "../lib/dates.ts";
import { pagePath } from "../lib/page-path.ts";
import { pageMeta } from "../lib/meta.ts";
import { PageHero } from "../sections/page-hero.tsx";
import { DocLayout, SideBlock } from "../sections/pages/docs.tsx";
import { Prose } from "../sections/pages/prose.tsx";
import type { Route } from "./+types/legal";

const byPath = {
  "/terms-of-service": pages.terms,
  "/privacy-policy": pages.privacy,
  "/cookies-policy": pages.cookies,
} as const;
type LegalPath = keyof typeof byPath;

const POLICIES: { path: LegalPath; label: string }[] = [
  { path: "/terms-of-service", label: "Terms of Service" },
  { path: "/privacy-policy", label: "Privacy Policy" },
  { path: "/cookies-policy", label: "Cookies Policy" },
];

export function loader({ request }: Route.LoaderArgs) {
  const path = pagePath(new URL(request.url).pathname) as LegalPath;
  return { path, doc: loadDocument(`legal${path}`) };
}

export const meta = ({ loaderData: data }: Route.MetaArgs) => pageMeta(byPath[data!.path]);

export default function Legal() {
  const { path, doc } = useLoaderData<typeof loader>();
  return (
    <>
      <PageHero eyebrow="Legal" title={doc.title} lead={doc.summary}>
        <p className="mt-4 text-sm text-muted-foreground">
          Last updated: <time dateTime={doc.updated}>{formatLongDate(doc.updated)}</time>
        </p>
      </PageHero>
      <DocLayout
        toc={doc.toc}
        extras={
          <>
            <SideBlock as="nav" title="Policies">
              <ul role="list" className="space-y-1">
                {POLICIES.map((policy) => (
                  <li key={policy.path}>
                    <a
                      href={policy.path}
                      aria-current={policy.path === path ? "page" : undefined}
                      className={cn(
                        "-mx-3 flex min-h-8 items-center rounded-lg px-3 text-sm text-slate-700 hover:bg-secondary hover:text-primary",
                        policy.path === path &&
                          "bg-secondary font-semibold text-secondary-foreground",
                      )}
                    >
                      {policy.label}
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
      >
        <article aria-label={doc.title}>
          <Prose html={doc.html} className="max-w-3xl [&>h2:first-child]:mt-0" />
        </article>
      </DocLayout>
    </>
  );
}
