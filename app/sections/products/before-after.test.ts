import { describe, expect, it } from "vitest";
import {
  assistantProducts,
  beforeAfterVariants,
  showcaseProducts,
} from "../../content/products.ts";
import { beforeAfterFor } from "./before-after.tsx";

const productPaths = [...showcaseProducts, ...assistantProducts].map((p) => p.page.path);

describe("before/after variants by path", () => {
  it("gives each of the six product pages a block of its own", () => {
    expect(productPaths).toHaveLength(6);
    const blocks = productPaths.map((path) => beforeAfterFor(path));
    expect(new Set(blocks).size).toBe(6);
    expect(blocks).not.toContain(beforeAfterVariants.default);
    const titles = blocks.map((b) => b.title);
    expect(new Set(titles).size).toBe(6);
  });

  it("keeps the three path keywords: product-wise, sales-wise, deal-wise", () => {
    expect(beforeAfterFor("/product/product-wise")).toBe(beforeAfterVariants["capture-wise"]);
    expect(beforeAfterFor("/solutions/sales-wise")).toBe(beforeAfterVariants["job-wise"]);
    expect(beforeAfterFor("/x/deal-wise")).toBe(beforeAfterVariants["business-wise"]);
  });

  it("falls back to the default for any other path, and matches whole path segments only", () => {
    for (const path of ["/product", "/product/tour", "/", "/product/listen-wise-old"]) {
      expect(beforeAfterFor(path), path).toBe(beforeAfterVariants.default);
    }
  });
});
