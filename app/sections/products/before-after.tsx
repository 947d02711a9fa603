// The before/after comparison shared by every product page. Its copy
// depends on the path: product-wise, sales-wise, deal-wise, otherwise the default.
import { Icon } from "../../components/ui/icon.tsx";
import { beforeAfterVariants } from "../../content/products.ts";
import type { BeforeAfter } from "../../content/types.ts";
import { cn } from "../../lib/cn.ts";
import { HeadedSection } from "../section-heading.tsx";

/**
 * The variant of the before/after block for a path: product-wise, sales-wise and deal-wise paths
 * have their own, every other path shows the default.
 */
export function beforeAfterFor(path: string): BeforeAfter {
  if (path.includes("product-wise")) return beforeAfterVariants.productWise;
  if (path.includes("sales-wise")) return beforeAfterVariants.salesWise;
  if (path.includes("deal-wise")) return beforeAfterVariants.dealWise;
  return beforeAfterVariants.default;
}

/** One side of a before/after comparison (also used by the use-case cards). */
export function BeforeAfterColumn({
  title,
  items,
  tone,
}: {
  title: string;
  items: string[];
  tone: "before" | "after";
}) {
  const after = tone === "after";
  return (
    <div
      className={cn(
        "rounded-2xl border p-6 sm:p-8",
        after
          ? "border-teal-200 bg-teal-50/60 shadow-sm ring-1 ring-teal-100"
          : "border-border bg-slate-50",
      )}
    >
      <h3
        className={cn(
          "flex items-center gap-3 text-lg font-semibold",
          after ? "text-teal-900" : "text-slate-800",
        )}
      >
        <span
          className={cn(
            "grid size-8 place-items-center rounded-full",
            after ? "bg-accent text-white" : "bg-slate-200 text-slate-600",
          )}
        >
          <Icon name={after ? "check" : "x"} className="size-4" />
        </span>
        {title}
      </h3>
      <ul className="mt-6 space-y-4">
        {items.map((item) => (
          <li key={item} className="flex gap-3 text-base leading-7">
            <Icon
              name={after ? "check" : "x"}
              className={cn("mt-1 size-5", after ? "text-accent" : "text-slate-500")}
            />
            <span className={after ? "text-slate-900" : "text-slate-700"}>{item}</span>
          </li>
        ))}
      </ul>
    </div>
  );
}

export function BeforeAfterSection({ path }: { path: string }) {
  const copy = beforeAfterFor(path);
  return (
    <HeadedSection
      id="before-after-title"
      className="bg-white py-16 sm:py-24"
      title={copy.title}
      lead={copy.lead}
    >
      <div className="mx-auto mt-12 grid max-w-5xl gap-6 md:grid-cols-2">
        <BeforeAfterColumn tone="before" title={copy.before.title} items={copy.before.items} />
        <BeforeAfterColumn tone="after" title={copy.after.title} items={copy.after.items} />
      </div>
    </HeadedSection>
  );
}
