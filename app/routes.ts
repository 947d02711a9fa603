import { index, layout, route, type RouteConfig } from "@react-router/dev/routes";
import { legalPages } from "./content/pages.ts";
import { assistantProducts, showcaseProducts } from "./content/products.ts";

/** A product page: its path comes from the product's content, its id is the path's last segment. */
const productRoute = (product: { page: { path: string } }, file: string) =>
  route(product.page.path.slice(1), file, { id: product.page.path.split("/").at(-1) });

export default [
  layout("routes/_site.tsx", [
    index("routes/home.tsx"),
    route("auth", "routes/auth.tsx"),
    route("auth/reset-password", "routes/reset-password.tsx"),
    route("auth/confirm", "routes/email-link.tsx"),
    route("account", "routes/account.tsx"),
    route("oauth/consent", "routes/oauth-consent.tsx"),
    route("team", "routes/team.tsx"),
    route("faq", "routes/faq.tsx"),
    route("blog", "routes/blog.tsx"),
    route("blog/:slug", "routes/blog-post.tsx"),
    route("contact", "routes/contact.tsx"),
    route("company", "routes/company.tsx"),
    route("use-cases", "routes/use-cases.tsx"),
    route("request-demo", "routes/request-demo.tsx"),
    route("request-access", "routes/request-access.tsx"),
    ...legalPages.map(({ id, page }) => route(page.path.slice(1), "routes/legal.tsx", { id })),
    route("zoom-documentation", "routes/zoom-documentation.tsx"),
    route("documentation", "routes/documentation.tsx"),
    route("product", "routes/products.tsx"),
    route("product/tour", "routes/product-tour.tsx"),
    ...showcaseProducts.map((p) => productRoute(p, "routes/product-showcase.tsx")),
    ...assistantProducts.map((p) => productRoute(p, "routes/product-assistant.tsx")),
    route("resources", "routes/resources.tsx"),
    route("resources/integrations", "routes/integrations.tsx"),
    route("javascript-required", "routes/javascript-required.tsx"),
    route("*", "routes/not-found.tsx"),
  ]),
  route("sitemap.xml", "routes/sitemap.ts"),
  route("robots.txt", "routes/robots.ts"),
  route("blog/rss.xml", "routes/rss.ts"),
] satisfies RouteConfig;
