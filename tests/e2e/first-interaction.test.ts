// In Chromium: the visitor's first click or keypress on an island counts, even when it comes right
// after the page loads, before the island's code has run (the click is held and replayed) or before
// the carousel behind it has started (the move waits for it). Each control, on a fresh page.
import type { Locator, Page } from "playwright-core";
import { expect, it } from "vitest";
import { describeInBrowser } from "../support/browser.ts";

const current = (slide: Locator) => slide.evaluate((s) => s.getAttribute("aria-hidden") === null);

describeInBrowser("the first interaction with an island", (ctx) => {
  const fresh = async (path: string, width: number): Promise<Page> => {
    const page = await ctx.newPage({ width, height: 900, mobile: width < 1024 });
    await page.goto(path);
    return page;
  };

  for (const width of [1280, 390]) {
    const features = (page: Page) => page.getByRole("region", { name: "Revwise features" });
    const featureList = (page: Page) => page.locator("[data-island=feature-carousel] ul");

    it(`a feature chosen at once scrolls the feature carousel to it (${width} px)`, async () => {
      const page = await fresh("/", width);
      const deal = featureList(page).getByRole("button", { name: /Deal summaries/ });
      await deal.click();
      await expect.poll(() => deal.getAttribute("aria-pressed"), { timeout: 5000 }).toBe("true");
      await expect
        .poll(() => current(features(page).locator('[aria-label="3 of 5"]')), { timeout: 5000 })
        .toBe(true);
    });

    it(`a feature chosen at once with the keyboard counts (${width} px)`, async () => {
      const page = await fresh("/", width);
      const deal = featureList(page).getByRole("button", { name: /Deal summaries/ });
      await deal.focus();
      await page.keyboard.press("Enter");
      await expect.poll(() => deal.getAttribute("aria-pressed"), { timeout: 5000 }).toBe("true");
    });

    it(`Next slide pressed at once moves the feature carousel (${width} px)`, async () => {
      const page = await fresh("/", width);
      await features(page).getByRole("button", { name: "Next slide" }).click();
      await expect
        .poll(() => current(features(page).locator('[aria-label="2 of 5"]')), { timeout: 5000 })
        .toBe(true);
      // The list follows the carousel on its next render: the slide can be shown a frame earlier.
      await expect
        .poll(() => featureList(page).getByRole("button").nth(1).getAttribute("aria-pressed"), {
          timeout: 5000,
        })
        .toBe("true");
    });

    it(`Next slide and a dot pressed at once move the CRM carousel (${width} px)`, async () => {
      const page = await fresh("/", width);
      const region = page.getByRole("region", { name: "CRM integrations" });
      await region.getByRole("button", { name: "Next slide" }).click();
      await expect
        .poll(() => current(region.locator('[aria-label^="2 of "]')), { timeout: 5000 })
        .toBe(true);

      const again = await fresh("/", width);
      const dot = again
        .getByRole("region", { name: "CRM integrations" })
        .getByRole("button", { name: "Go to slide 3" });
      await dot.click();
      await expect.poll(() => dot.getAttribute("aria-current"), { timeout: 5000 }).toBe("true");
    });

    it(`→ pressed at once on a carousel moves it (${width} px)`, async () => {
      for (const name of ["Revwise features", "CRM integrations"]) {
        const page = await fresh("/", width);
        const region = page.getByRole("region", { name });
        await region.focus();
        await page.keyboard.press("ArrowRight");
        await expect
          .poll(() => current(region.locator('[aria-label^="2 of "]')), { timeout: 5000 })
          .toBe(true);
      }
    });

    it(`a dot pressed at once moves a product's carousel (${width} px)`, async () => {
      const page = await fresh("/product/business-wise", width);
      const dot = page.getByRole("button", { name: "Go to slide 3" });
      await dot.click();
      await expect.poll(() => dot.getAttribute("aria-current"), { timeout: 5000 }).toBe("true");
    });
  }
});
