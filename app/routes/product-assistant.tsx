import { useLocation } from "react-router";
import { pages } from "../content/pages.ts";
import { assistantProducts, productNextStep } from "../content/products.ts";
import { pageMeta } from "../lib/meta.ts";
import { pagePath } from "../lib/page-path.ts";
import { CtaBand } from "../sections/pages/cta-band.tsx";
import { BeforeAfterSection } from "../sections/products/before-after.tsx";
import { FeatureStrip } from "../sections/products/feature-strip.tsx";
import { KnowledgeChat } from "../sections/products/knowledge-chat.tsx";
import { ProductHero } from "../sections/products/product-hero.tsx";
import type { Route } from "./+types/product-assistant";

const byPath = {
  "/product/capture-wise": pages.captureWise,
  "/product/job-wise": pages.jobWise,
  "/product/sort-wise": pages.sortWise,
} as const;
const pageFor = (path: string) => byPath[path as keyof typeof byPath] ?? pages.products;

function productFor(path: string) {
  const product = assistantProducts.find((p) => p.path === path);
  if (!product) throw new Error(`No assistant product for ${path}`);
  return product;
}

export const meta = ({ location }: Route.MetaArgs) =>
  pageMeta(pageFor(pagePath(location.pathname)));

/** Capture-, job- and sort-wise: hero, the static Sales Knowledge Chat, highlights, before/after, next step. */
export default function Product() {
  const path = pagePath(useLocation().pathname);
  const product = productFor(path);
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
      <CtaBand
        title={productNextStep.title(product.name)}
        text={productNextStep.text}
        secondary={productNextStep.tour}
      />
    </>
  );
}
