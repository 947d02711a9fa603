import { useLocation } from "react-router";
import { assistantProducts, productAt } from "../content/products.ts";
import { pageMeta } from "../lib/meta.ts";
import { pagePath } from "../lib/page-path.ts";
import { BeforeAfterSection } from "../sections/products/before-after.tsx";
import { FeatureStrip } from "../sections/products/feature-strip.tsx";
import { KnowledgeChat } from "../sections/products/knowledge-chat.tsx";
import { ProductHero } from "../sections/products/product-hero.tsx";
import { ProductNextStep } from "../sections/products/product-next-step.tsx";
import type { Route } from "./+types/product-assistant";

export const meta = ({ location }: Route.MetaArgs) =>
  pageMeta(productAt(assistantProducts, pagePath(location.pathname)).page);

/** Capture-, job- and sort-wise: hero, the static Sales Knowledge Chat, highlights, before/after, next step. */
export default function Product() {
  const path = pagePath(useLocation().pathname);
  const product = productAt(assistantProducts, path);
  return (
    <>
      <ProductHero eyebrow={product.eyebrow} title={product.title} lead={product.lead}>
        <KnowledgeChat product={product} />
      </ProductHero>
      <FeatureStrip
        id="highlights-title"
        heading={`${product.name} highlights`}
        items={product.highlights}
      />
      <BeforeAfterSection path={path} />
      <ProductNextStep name={product.name} />
    </>
  );
}
