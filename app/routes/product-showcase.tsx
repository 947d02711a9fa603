import { useLocation } from "react-router";
import { pages } from "../content/pages.ts";
import { pageMeta } from "../lib/meta.ts";
import { PageHero } from "../sections/page-hero.tsx";
import type { Route } from "./+types/product-showcase";

const byPath = {
  "/product/business-wise": pages.businessWise,
  "/product/listen-wise": pages.listenWise,
  "/product/role-wise": pages.roleWise,
} as const;
const pageFor = (path: string) => byPath[path as keyof typeof byPath] ?? pages.products;

export const meta = ({ location }: Route.MetaArgs) => pageMeta(pageFor(location.pathname));

export default function Product() {
  const page = pageFor(useLocation().pathname);
  return (
    <PageHero
      eyebrow="Product"
      title={page.title.replace(" · Revwise", "")}
      lead={page.description}
    />
  );
}
