import type * as React from "react";
import { Container } from "../../components/layout/container.tsx";
import { ExternalLink } from "../../components/layout/external-link.tsx";
import { Button } from "../../components/ui/button.tsx";
import { bookDemoUrl } from "../../content/site.ts";

/**
 * The closing call to action of an inner page: a dark panel with a heading, a sentence, Book Demo
 * (the external scheduling page) and one more link of the page's choosing.
 */
export function CtaBand({
  title,
  text,
  secondary,
  children,
}: {
  title: string;
  text: string;
  secondary?: { label: string; href: string };
  children?: React.ReactNode;
}) {
  return (
    <section aria-labelledby="cta-band-title" className="py-16 sm:py-20">
      <Container>
        <div className="relative isolate overflow-hidden rounded-3xl bg-ink px-6 py-12 text-center sm:px-12 sm:py-16">
          <div
            aria-hidden="true"
            className="absolute -top-24 -right-24 -z-10 size-72 rounded-full bg-radial from-indigo-500/25 to-transparent to-70%"
          />
          <div
            aria-hidden="true"
            className="absolute -bottom-28 -left-20 -z-10 size-72 rounded-full bg-radial from-teal-400/15 to-transparent to-70%"
          />
          <h2
            id="cta-band-title"
            className="mx-auto max-w-2xl text-3xl font-bold tracking-tight text-white sm:text-4xl"
          >
            {title}
          </h2>
          <p className="mx-auto mt-4 max-w-xl text-lg leading-8 text-slate-300">{text}</p>
          <div className="mt-8 flex flex-col items-center justify-center gap-3 sm:flex-row">
            <Button asChild variant="inverse" size="lg" className="focus-visible:outline-white">
              <ExternalLink href={bookDemoUrl}>Book Demo</ExternalLink>
            </Button>
            {secondary && (
              <Button
                asChild
                variant="ghost"
                size="lg"
                className="text-white ring-1 ring-white/30 hover:bg-white/10 focus-visible:outline-white"
              >
                <a href={secondary.href}>{secondary.label}</a>
              </Button>
            )}
          </div>
          {children}
        </div>
      </Container>
    </section>
  );
}
