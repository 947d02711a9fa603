// The product overview's three alternating sections (text and visual, then reversed), each
// linking to its product page; the first shows the contacts mock-up, the others a screenshot.
import { Container } from "../../components/layout/container.tsx";
import { Icon } from "../../components/ui/icon.tsx";
import type { OverviewContact, ProductOverviewSection } from "../../content/products.ts";
import type { ImageRef } from "../../content/types.ts";
import { cn } from "../../lib/cn.ts";
import { ContactsCard } from "./contacts-card.tsx";
import { GlowFrame } from "../../components/ui/glow-frame.tsx";
import { Mockup } from "../../components/ui/mockup.tsx";

export type OverviewVisual =
  { kind: "contacts"; contacts: OverviewContact[] } | { kind: "image"; image: ImageRef };

function Visual({ visual }: { visual: OverviewVisual }) {
  if (visual.kind === "contacts")
    return <ContactsCard contacts={visual.contacts} className="mx-auto w-full max-w-xl" />;
  const { image } = visual;
  return (
    <GlowFrame>
      <Mockup
        image={image}
        loading="lazy"
        decoding="async"
        className="block h-auto w-full rounded-lg bg-indigo-50"
      />
    </GlowFrame>
  );
}

export function OverviewSection({
  section,
  visual,
  reversed,
  tinted,
}: {
  section: ProductOverviewSection;
  visual: OverviewVisual;
  reversed: boolean;
  tinted: boolean;
}) {
  const headingId = `${section.product}-title`;
  return (
    <section
      aria-labelledby={headingId}
      className={cn("py-16 sm:py-24", tinted ? "bg-slate-50" : "bg-white")}
    >
      <Container className="grid items-center gap-10 lg:grid-cols-2 lg:gap-16">
        <div className={cn("max-w-xl", reversed && "lg:order-2 lg:justify-self-end")}>
          <p className="text-sm font-semibold tracking-wide text-primary uppercase">
            {section.eyebrow}
          </p>
          <h2
            id={headingId}
            className="mt-2 text-3xl font-bold tracking-tight text-balance text-ink sm:text-4xl"
          >
            {section.title}
          </h2>
          <p className="mt-4 text-lg leading-8 text-slate-700">{section.description}</p>
          <ul className="mt-6 space-y-3">
            {section.bullets.map((bullet) => (
              <li key={bullet} className="flex gap-3 text-base leading-7 text-slate-800">
                <span
                  aria-hidden="true"
                  className="mt-1 grid size-5 shrink-0 place-items-center rounded-full bg-teal-100 text-teal-800"
                >
                  <Icon name="check" className="size-3.5" />
                </span>
                {bullet}
              </li>
            ))}
          </ul>
          <a
            href={section.href}
            className="group mt-8 inline-flex min-h-10 items-center gap-2 rounded-lg font-semibold text-primary underline-offset-4 hover:text-indigo-900 hover:underline"
          >
            {section.linkLabel}
            <Icon
              name="arrow-right"
              className="size-4 transition-transform group-hover:translate-x-0.5"
            />
          </a>
        </div>
        <div className={cn(reversed && "lg:order-1")}>
          <Visual visual={visual} />
        </div>
      </Container>
    </section>
  );
}
