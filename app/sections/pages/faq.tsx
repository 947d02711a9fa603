import type * as React from "react";
import { Container } from "../../components/layout/container.tsx";
import { Button } from "../../components/ui/button.tsx";
import { Icon } from "../../components/ui/icon.tsx";
import type { FaqItem } from "../../content/types.ts";

/**
 * The questions as an exclusive accordion of native <details name>: one open at a time, works
 * without JavaScript, and the answers are in the HTML for search engines. Items marked nextSteps
 * show the page's `nextSteps` (the buttons the answer names) under the answer.
 */
export function FaqAccordion({
  items,
  headingId,
  title,
  nextSteps,
}: {
  items: FaqItem[];
  headingId: string;
  title: string;
  nextSteps?: React.ReactNode;
}) {
  return (
    <section aria-labelledby={headingId}>
      <h2
        id={headingId}
        tabIndex={-1}
        className="text-2xl font-bold tracking-tight text-ink outline-none sm:text-3xl"
      >
        {title}
      </h2>
      <div className="mt-6 space-y-3">
        {items.map((item) => (
          <details
            key={item.question}
            name="faq"
            className="group rounded-2xl border border-border bg-white shadow-xs transition-shadow open:border-indigo-200 open:shadow-md"
          >
            <summary className="flex min-h-14 cursor-pointer list-none items-center justify-between gap-4 rounded-2xl px-5 py-4 text-left text-base font-semibold text-ink hover:bg-slate-50 group-open:rounded-b-none group-open:hover:bg-transparent sm:px-6 sm:text-lg [&::-webkit-details-marker]:hidden">
              <span>{item.question}</span>
              <span
                aria-hidden="true"
                className="grid size-8 shrink-0 place-items-center rounded-full bg-secondary text-primary transition-transform duration-200 group-open:rotate-180"
              >
                <Icon name="chevron-down" className="size-4" />
              </span>
            </summary>
            <div className="px-5 pb-6 sm:px-6">
              <p className="max-w-2xl leading-7 text-slate-700">{item.answer}</p>
              {item.nextSteps && nextSteps}
            </div>
          </details>
        ))}
      </div>
    </section>
  );
}

/** The FAQ's closing pointer to the contact page (a side column on large screens). */
export function FaqStillQuestions() {
  return (
    <aside
      aria-labelledby="faq-more-title"
      className="rounded-2xl border border-border bg-slate-50 p-6 sm:p-8 lg:sticky lg:top-24 lg:self-start"
    >
      <span className="grid size-12 place-items-center rounded-xl bg-white text-primary shadow-sm ring-1 ring-border">
        <Icon name="message" />
      </span>
      <h2 id="faq-more-title" className="mt-5 text-xl font-bold text-ink">
        Still have questions?
      </h2>
      <p className="mt-2 leading-7 text-slate-700">
        Send us a message and a person on our Seattle team will reply within one business day.
      </p>
      <Button asChild size="lg" className="mt-6 w-full sm:w-auto lg:w-full">
        <a href="/contact">
          Contact us
          <Icon name="arrow-right" />
        </a>
      </Button>
      <p className="mt-5 text-sm leading-6 text-slate-700">
        Setting Revwise up? Read the{" "}
        <a
          href="/documentation"
          className="font-semibold text-primary underline underline-offset-4 hover:text-indigo-900"
        >
          documentation
        </a>
        .
      </p>
    </aside>
  );
}

export function FaqLayout({
  children,
  aside,
}: {
  children: React.ReactNode;
  aside: React.ReactNode;
}) {
  return (
    <Container className="grid gap-12 py-12 sm:py-16 lg:grid-cols-[minmax(0,1fr)_20rem] lg:gap-16">
      <div className="min-w-0 max-w-3xl">{children}</div>
      {aside}
    </Container>
  );
}
