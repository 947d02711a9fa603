import { describe, expect, it } from "vitest";
import { beforeAfterVariants } from "../../content/products.ts";
import { beforeAfterFor } from "./before-after.tsx";

describe("before/after variants by path", () => {
  it("picks product-wise, sales-wise, deal-wise, otherwise the default", () => {
    expect(beforeAfterFor("/product/product-wise")).toBe(beforeAfterVariants.productWise);
    expect(beforeAfterFor("/solutions/sales-wise")).toBe(beforeAfterVariants.salesWise);
    expect(beforeAfterFor("/x/deal-wise")).toBe(beforeAfterVariants.dealWise);
    for (const path of [
      "/product/business-wise",
      "/product/listen-wise",
      "/product/role-wise",
      "/product/capture-wise",
      "/product/job-wise",
      "/product/sort-wise",
    ]) {
      expect(beforeAfterFor(path), path).toBe(beforeAfterVariants.default);
    }
  });
});
