// Three features (or highlights) of a product: icon, title, description.
import { Container } from "../../components/layout/container.tsx";
import { Icon } from "../../components/ui/icon.tsx";
import type { IconName, Point } from "../../content/types.ts";

export function FeatureStrip({
  id,
  heading,
  items,
}: {
  /** Id of the section's heading. */
  id: string;
  /** The section's h2, for assistive technology (the strip itself carries no visible heading). */
  heading: string;
  items: (Point & { icon: IconName })[];
}) {
  return (
    <section aria-labelledby={id} className="border-b border-border bg-slate-50 py-16 sm:py-20">
      <Container>
        <h2 id={id} className="sr-only">
          {heading}
        </h2>
        <ul className="grid gap-6 md:grid-cols-3">
          {items.map((item) => (
            <li
              key={item.title}
              className="flex gap-4 rounded-2xl border border-border bg-white p-6 shadow-sm md:block lg:p-8"
            >
              <span className="grid size-11 shrink-0 place-items-center rounded-xl bg-secondary text-primary">
                <Icon name={item.icon} />
              </span>
              <div>
                <h3 className="text-lg font-semibold text-ink md:mt-5">{item.title}</h3>
                <p className="mt-2 text-base leading-7 text-slate-700">{item.description}</p>
              </div>
            </li>
          ))}
        </ul>
      </Container>
    </section>
  );
}
