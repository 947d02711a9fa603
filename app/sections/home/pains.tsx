import type { Pain } from "../../content/types.ts";
import { cn } from "../../lib/cn.ts";
import { IconItem, ITEM_CARD } from "../icon-item.tsx";
import { HeadedSection } from "../section-heading.tsx";

/** "Sell like it's 2025": the four chores Revwise takes away, as a grid of cards. */
export function Pains({ title, lead, pains }: { title: string; lead: string; pains: Pain[] }) {
  return (
    <HeadedSection id="pains-title" className="py-20 sm:py-28" title={title} lead={lead}>
      <ul className="mt-14 grid gap-6 md:grid-cols-2">
        {pains.map((pain) => (
          <IconItem
            key={pain.title}
            icon={pain.icon}
            title={pain.title}
            description={pain.description}
            className={cn(ITEM_CARD, "transition-shadow hover:shadow-md sm:flex-row")}
          />
        ))}
      </ul>
    </HeadedSection>
  );
}
