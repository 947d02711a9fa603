import { pages } from "../content/pages.ts";
import {
  assistantOverview,
  assistantProducts,
  overviewContacts,
  productAt,
  productOverview,
  showcaseProducts,
} from "../content/products.ts";
import type { ImageRef } from "../content/types.ts";
import { pageMeta } from "../lib/meta.ts";
import { AssistantLinks } from "../sections/products/assistant-links.tsx";
import { type OverviewVisual, OverviewSection } from "../sections/products/overview-sections.tsx";
import { ProductHero } from "../sections/products/product-hero.tsx";
import { ProductNextStep } from "../sections/products/product-next-step.tsx";

export const meta = () => pageMeta(pages.products);

/** A screenshot of a showcase product (its slide `index`), for an overview section's visual. */
function slideOf(path: string, index: number): ImageRef {
  const slide = productAt(showcaseProducts, path).slides[index];
  if (!slide) throw new Error(`No slide ${index} for ${path}`);
  const { src, alt, width, height } = slide;
  return { src, alt, width, height };
}

/** Business Wise shows the contacts mock-up; Role Wise and Listen Wise a screenshot each. */
function visualFor(href: string): OverviewVisual {
  if (href === pages.roleWise.path) return { kind: "image", image: slideOf(href, 1) };
  if (href === pages.listenWise.path) return { kind: "image", image: slideOf(href, 2) };
  return { kind: "contacts", contacts: overviewContacts };
}

/**
 * /product: h1 and lead, the three products in alternating sections, the three Sales Knowledge
 * Chat products, then the next step.
 */
export default function Page() {
  return (
    <>
      <ProductHero eyebrow="Products" title={productOverview.title} lead={productOverview.lead} />
      {productOverview.sections.map((section, i) => (
        <OverviewSection
          key={section.product}
          section={section}
          visual={visualFor(section.href)}
          reversed={i % 2 === 1}
          tinted={i % 2 === 1}
        />
      ))}
      <AssistantLinks {...assistantOverview} products={assistantProducts} />
      <ProductNextStep name="Revwise" />
    </>
  );
}
