import { Container } from "../components/layout/container.tsx";
import { ExternalLink } from "../components/layout/external-link.tsx";
import { buttonVariants } from "../components/ui/button.tsx";
import { Icon } from "../components/ui/icon.tsx";
import { RequestAccessButton } from "../forms/request-access-button.tsx";
import { Island } from "../islands/island.tsx";
import { cn } from "../lib/cn.ts";

/** The last word of a page, on ink: a title, a lead, "Book Demo" (new tab) and "Request Access". */
export function ClosingCta({
  title,
  lead,
  bookDemoUrl,
}: {
  title: string;
  lead: string;
  bookDemoUrl: string;
}) {
  return (
    <section aria-labelledby="closing-cta-title" className="border-b border-white/10 bg-ink">
      <Container className="py-16 sm:py-24">
        <div className="relative isolate overflow-hidden rounded-3xl bg-gradient-to-br from-indigo-950 via-ink to-ink px-6 py-14 text-center ring-1 ring-white/10 sm:px-12 sm:py-20">
          <div
            aria-hidden="true"
            className="absolute -top-32 left-1/2 -z-10 size-[36rem] -translate-x-1/2 rounded-full bg-radial from-indigo-600/25 to-transparent to-70%"
          />
          <h2
            id="closing-cta-title"
            className="mx-auto max-w-2xl text-3xl font-bold tracking-tight text-balance text-white sm:text-4xl"
          >
            {title}
          </h2>
          <p className="mx-auto mt-5 max-w-2xl text-lg leading-8 text-slate-300">{lead}</p>
          <div className="mt-10 flex flex-col items-stretch justify-center gap-3 sm:flex-row sm:items-center">
            <Island
              name="request-access"
              component={RequestAccessButton}
              props={{ size: "lg", variant: "inverse", className: "focus-visible:outline-white" }}
              hydrate="interaction"
            />
            <ExternalLink
              href={bookDemoUrl}
              className={cn(
                buttonVariants({ size: "lg" }),
                "border border-white/30 bg-transparent text-white shadow-none hover:bg-white/10 focus-visible:outline-white",
              )}
            >
              Book Demo
              <Icon name="arrow-right" />
            </ExternalLink>
          </div>
        </div>
      </Container>
    </section>
  );
}
