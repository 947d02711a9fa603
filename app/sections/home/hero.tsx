import { Container } from "../../components/layout/container.tsx";
import type { ImageRef, Logo } from "../../content/types.ts";
import { RequestAccessButton } from "../../forms/request-access-button.tsx";
import { WatchDemoButton } from "../../forms/watch-demo-button.tsx";
import { Island } from "../../islands/island.tsx";
import { LogoCloud } from "../logo-cloud.tsx";
import { Mockup } from "../../components/ui/mockup.tsx";

/**
 * The home page's opening: eyebrow, the page's one h1, lead, the two calls to action, the product
 * screenshot (the largest contentful paint: eager, high priority, sized) and the customers.
 */
export function HomeHero({
  eyebrow,
  title,
  lead,
  image,
  logos,
  logosLabel,
}: {
  eyebrow: string;
  title: string;
  lead: string;
  image: ImageRef;
  logos: Logo[];
  logosLabel: string;
}) {
  return (
    <section
      aria-labelledby="hero-title"
      className="relative isolate overflow-hidden border-b border-border bg-gradient-to-b from-indigo-50 via-white to-white"
    >
      <div
        aria-hidden="true"
        className="pointer-events-none absolute inset-x-0 top-0 -z-10 h-[36rem]"
      >
        <div className="absolute -top-40 left-1/2 size-[44rem] -translate-x-1/2 rounded-full bg-radial from-indigo-200/50 to-transparent to-70%" />
        <div className="absolute top-24 -right-32 size-[24rem] rounded-full bg-radial from-teal-100/60 to-transparent to-70%" />
      </div>
      <Container className="pt-14 pb-16 sm:pt-20 sm:pb-20 lg:pt-24">
        <div className="mx-auto max-w-3xl text-center">
          <p className="inline-flex items-center gap-2 rounded-full border border-indigo-200 bg-white/80 px-3 py-1 text-xs font-semibold sm:text-sm text-primary shadow-xs">
            <span aria-hidden="true" className="size-1.5 rounded-full bg-teal-600" />
            {eyebrow}
          </p>
          <h1
            id="hero-title"
            className="mt-6 text-4xl font-bold tracking-tight text-balance text-ink sm:text-6xl"
          >
            {title}
          </h1>
          <p className="mx-auto mt-6 max-w-2xl text-base leading-7 text-slate-700 sm:text-lg sm:leading-8">
            {lead}
          </p>
          <div className="mt-10 flex flex-col items-stretch justify-center gap-3 sm:flex-row sm:items-center">
            <Island
              name="request-access"
              component={RequestAccessButton}
              props={{ size: "lg" }}
              hydrate="interaction"
            />
            <Island
              name="watch-demo"
              component={WatchDemoButton}
              props={{ size: "lg", variant: "outline" }}
              hydrate="interaction"
            />
          </div>
        </div>
        <div className="relative mt-14 sm:mt-16">
          <div
            aria-hidden="true"
            className="absolute -inset-x-6 -inset-y-4 -z-10 rounded-[2rem] bg-radial from-indigo-200/60 via-indigo-100/30 to-transparent to-75%"
          />
          <Mockup
            image={image}
            fetchPriority="high"
            className="h-auto w-full rounded-xl shadow-2xl ring-1 shadow-indigo-900/15 ring-slate-900/10 sm:rounded-2xl"
          />
        </div>
        <LogoCloud logos={logos} label={logosLabel} className="mt-16 sm:mt-20" />
      </Container>
    </section>
  );
}
