import { useLocation } from "react-router";
import { productAt, showcaseProducts } from "../content/products.ts";
import { pageMeta } from "../lib/meta.ts";
import { pagePath } from "../lib/page-path.ts";
import { BeforeAfterSection } from "../sections/products/before-after.tsx";
import { FeatureStrip } from "../sections/products/feature-strip.tsx";
import { ProductCtas, ProductHero } from "../sections/products/product-hero.tsx";
import { ProductNextStep } from "../sections/products/product-next-step.tsx";
import { ShowcaseCarousel } from "../sections/products/showcase-carousel.tsx";
import type { Route } from "./+types/product-showcase";

export const meta = ({ location }: Route.MetaArgs) =>
  pageMeta(productAt(showcaseProducts, pagePath(location.pathname)).page);

/** Business-, listen- and role-wise: hero, screenshot carousel, three features, before/after, next step. */
export default function Product() {
  const path = pagePath(useLocation().pathname);
  const product = productAt(showcaseProducts, path);
  return (
    <>
      <ProductHero
        eyebrow={product.eyebrow}
        title={product.title}
        lead={product.lead}
        actions={<ProductCtas />}
      >
        <ShowcaseCarousel product={product} />
      </ProductHero>
      <FeatureStrip
        id="features-title"
        heading={`${product.name} features`}
        items={product.features}
      />
      <BeforeAfterSection path={path} />
      <ProductNextStep name={product.name} />
    </>
  );
}
