// Three features (or highlights) of a product: icon, title, description.
import { Container } from "../../components/layout/container.tsx";
import type { IconName, Point } from "../../content/types.ts";
import { cn } from "../../lib/cn.ts";
import { IconItem, ITEM_CARD } from "../icon-item.tsx";

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
            <IconItem
              key={item.title}
              icon={item.icon}
              title={item.title}
              description={item.description}
              layout="row"
              className={cn(ITEM_CARD, "md:flex-col lg:p-8")}
            />
          ))}
        </ul>
      </Container>
    </section>
  );
}
