import type * as React from "react";
import { Container } from "../components/layout/container.tsx";

/** The opening of an inner page: an eyebrow, the page's one h1 and a lead paragraph. */
export function PageHero({
  eyebrow,
  title,
  lead,
  children,
}: {
  eyebrow?: string;
  title: string;
  lead?: string;
  children?: React.ReactNode;
}) {
  return (
    <section className="border-b border-border bg-gradient-to-b from-indigo-50/70 to-white">
      <Container className="py-14 sm:py-20">
        {eyebrow && (
          <p className="text-sm font-semibold tracking-wide text-primary uppercase">{eyebrow}</p>
        )}
        <h1 className="mt-3 max-w-3xl text-4xl font-bold tracking-tight text-ink sm:text-5xl">
          {title}
        </h1>
        {lead && <p className="mt-5 max-w-2xl text-lg leading-8 text-muted-foreground">{lead}</p>}
        {children}
      </Container>
    </section>
  );
}
