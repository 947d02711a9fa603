// The opening of a product page: eyebrow, the page's one h1, the lead, optional calls to action
// and the product visual (the carousel or the chat mock) underneath.
import type * as React from "react";
import { Container } from "../../components/layout/container.tsx";
import { ExternalLink } from "../../components/layout/external-link.tsx";
import { Button } from "../../components/ui/button.tsx";
import { Icon } from "../../components/ui/icon.tsx";
import { bookDemoUrl } from "../../content/site.ts";
import { RequestAccessButton } from "../../forms/request-access-button.tsx";
import { Island } from "../../islands/island.tsx";
import { cn } from "../../lib/cn.ts";

/** Request Access (the dialog island) and Book Demo (the external scheduling page). */
export function ProductCtas({ className }: { className?: string }) {
  return (
    <div
      className={cn(
        "mx-auto mt-8 flex max-w-xs flex-col gap-3 sm:max-w-none sm:flex-row sm:justify-center",
        className,
      )}
    >
      <Island
        name="request-access"
        component={RequestAccessButton}
        props={{ size: "lg", className: "w-full sm:w-auto" }}
        hydrate="interaction"
      />
      <Button asChild variant="outline" size="lg" className="w-full sm:w-auto">
        <ExternalLink href={bookDemoUrl}>
          Book Demo
          <Icon name="external" />
        </ExternalLink>
      </Button>
    </div>
  );
}

export function ProductHero({
  eyebrow,
  title,
  lead,
  actions,
  children,
}: {
  eyebrow: string;
  title: string;
  lead: string;
  actions?: React.ReactNode;
  children?: React.ReactNode;
}) {
  return (
    <section className="relative overflow-hidden border-b border-border bg-gradient-to-b from-indigo-50 via-white to-white">
      <div
        aria-hidden="true"
        className="pointer-events-none absolute inset-x-0 top-0 h-[28rem] bg-[radial-gradient(ellipse_at_top,rgba(99,102,241,0.14),transparent_65%)]"
      />
      <Container className="relative pt-14 pb-16 sm:pt-20 sm:pb-24">
        <div className="mx-auto max-w-4xl text-center">
          <p className="inline-flex items-center gap-2 rounded-full border border-indigo-200 bg-white/80 px-3 py-1 text-xs font-semibold tracking-wide text-primary uppercase sm:text-sm">
            <span aria-hidden="true" className="size-1.5 rounded-full bg-accent" />
            {eyebrow}
          </p>
          <h1 className="mt-5 text-4xl font-bold tracking-tight text-balance text-ink sm:text-5xl lg:text-6xl">
            {title}
          </h1>
          <p className="mx-auto mt-6 max-w-2xl text-lg leading-8 text-pretty text-slate-700">
            {lead}
          </p>
          {actions}
        </div>
        {children && <div className="mt-12 sm:mt-16">{children}</div>}
      </Container>
    </section>
  );
}
