import type * as React from "react";
import { Container } from "../../components/layout/container.tsx";
import { Icon } from "../../components/ui/icon.tsx";
import type { Document, TocEntry } from "../../content/documents.ts";
import { cn } from "../../lib/cn.ts";
import { formatLongDate } from "../../lib/dates.ts";
import { PageHero } from "../page-hero.tsx";
import { Prose } from "./prose.tsx";

function TocList({ toc }: { toc: TocEntry[] }) {
  return (
    <ol role="list" className="space-y-0.5 border-l border-border">
      {toc.map((entry) => (
        <li key={entry.id}>
          <a
            href={`#${entry.id}`}
            className="-ml-px flex min-h-8 items-center border-l-2 border-transparent py-1 pl-4 text-sm leading-5 text-slate-700 hover:border-primary hover:text-primary"
          >
            {entry.title}
          </a>
        </li>
      ))}
    </ol>
  );
}

const SIDE_TITLE = "text-sm font-semibold tracking-wide text-slate-600 uppercase";

/** A titled block of a document's side column (no ids: the column is rendered twice). */
export function SideBlock({
  title,
  as: Tag = "div",
  children,
  className,
}: {
  title: string;
  as?: "div" | "nav";
  children: React.ReactNode;
  className?: string;
}) {
  return (
    <Tag aria-label={Tag === "nav" ? title : undefined} className={className}>
      <p className={SIDE_TITLE}>{title}</p>
      <div className="mt-3">{children}</div>
    </Tag>
  );
}

/**
 * A long document with "On this page" (the links to its h2 sections) and optional extras.
 * Large screens: a sticky side column (left or right) holds both. Phones: the contents are a
 * collapsible list above the text, and the extras follow the text.
 */
function DocLayout({
  toc,
  extras,
  side = "left",
  children,
}: {
  toc: TocEntry[];
  extras?: React.ReactNode;
  side?: "left" | "right";
  children: React.ReactNode;
}) {
  const hasToc = toc.length > 1;
  return (
    <Container
      className={cn(
        "grid gap-10 py-12 sm:py-16 lg:gap-16",
        side === "left"
          ? "lg:grid-cols-[15rem_minmax(0,1fr)]"
          : "lg:grid-cols-[minmax(0,1fr)_16rem]",
      )}
    >
      <div
        className={cn(
          "hidden lg:sticky lg:top-24 lg:block lg:max-h-[calc(100vh-7rem)] lg:self-start lg:overflow-y-auto lg:pb-4",
          side === "right" && "lg:col-start-2 lg:row-start-1",
        )}
      >
        {hasToc && (
          <SideBlock as="nav" title="On this page">
            <TocList toc={toc} />
          </SideBlock>
        )}
        {extras && <div className={cn(hasToc && "mt-8 border-t border-border pt-6")}>{extras}</div>}
      </div>
      <div className={cn("min-w-0", side === "right" && "lg:col-start-1 lg:row-start-1")}>
        {hasToc && (
          <details className="group mb-10 rounded-2xl border border-border bg-slate-50 lg:hidden">
            <summary className="flex min-h-12 cursor-pointer list-none items-center justify-between gap-4 rounded-2xl px-5 py-3 font-semibold text-ink [&::-webkit-details-marker]:hidden">
              <span>
                On this page{" "}
                <span className="font-normal text-slate-600">({toc.length} sections)</span>
              </span>
              <Icon
                name="chevron-down"
                className="size-4 text-primary transition-transform group-open:rotate-180"
              />
            </summary>
            <nav aria-label="On this page" className="px-5 pb-5">
              <TocList toc={toc} />
            </nav>
          </details>
        )}
        {children}
        {extras && (
          <div className="mt-12 rounded-2xl border border-border bg-slate-50 p-6 lg:hidden">
            {extras}
          </div>
        )}
      </div>
    </Container>
  );
}

/** A markdown document's page (documentation, legal): hero with its last update, then the text. */
export function DocumentPage({
  eyebrow,
  doc,
  extras,
}: {
  eyebrow: string;
  doc: Document;
  extras?: React.ReactNode;
}) {
  return (
    <>
      <PageHero eyebrow={eyebrow} title={doc.title} lead={doc.summary}>
        <p className="mt-4 text-sm text-slate-600">
          Last updated: <time dateTime={doc.updated}>{formatLongDate(doc.updated)}</time>
        </p>
      </PageHero>
      <DocLayout toc={doc.toc} extras={extras}>
        <article aria-label={doc.title}>
          <Prose html={doc.html} className="max-w-3xl [&>h2:first-child]:mt-0" />
        </article>
      </DocLayout>
    </>
  );
}
