// What a visitor sees at a phone's and a laptop's width: nothing wider than the screen, product
// mock-ups whose text is as large as drawn (cropped on a phone rather than shrunk), one left edge
// for the home page's content, and tables that become labelled cards on a phone.
import type { Page } from "playwright-core";
import { expect, it } from "vitest";
import { describeInBrowser } from "../support/browser.ts";
import { allRoutes } from "../support/routes.ts";

/** Scrolls through the page so that lazy images load, then back to the top. */
const loadWholePage = async (page: Page) => {
  await page.evaluate(async () => {
    for (let y = 0; y < document.documentElement.scrollHeight; y += 500) {
      window.scrollTo(0, y);
      await new Promise((r) => requestAnimationFrame(r));
    }
    window.scrollTo(0, 0);
  });
};

describeInBrowser("looks", (ctx) => {
  it(
    "fits every page into 390 px and draws every mock-up at least at its own size",
    { timeout: 300_000 },
    async () => {
      const page = await ctx.newPage({ width: 390, height: 844, mobile: true });
      let mockups = 0;
      for (const route of allRoutes) {
        await page.goto(route, { waitUntil: "networkidle" });
        await loadWholePage(page);
        const overflow = await page.evaluate(() => document.documentElement.scrollWidth);
        expect(overflow, `${route} is wider than the screen`).toBeLessThanOrEqual(390);
        const scales = await page.$$eval("img.mockup", (images) =>
          images
            .filter((img) => img.getBoundingClientRect().width > 0)
            .map((img) => {
              const fit = getComputedStyle(img).objectFit;
              const box = img.getBoundingClientRect();
              // The picture's own size is in its width and height attributes (loaded or not).
              const scale =
                fit === "none"
                  ? 1
                  : Math.min(
                      box.width / Number(img.getAttribute("width")),
                      box.height / Number(img.getAttribute("height")),
                    );
              return { src: img.getAttribute("src") ?? "", scale };
            }),
        );
        for (const { src, scale } of scales) {
          expect(scale, `${route}: ${src} drawn at ${scale.toFixed(2)}×`).toBeGreaterThanOrEqual(1);
        }
        mockups += scales.length;
      }
      expect(mockups).toBeGreaterThanOrEqual(10);
    },
  );

  it("lines the home page's content up on one left edge at 1280 px", async () => {
    const page = await ctx.newPage({ width: 1280, height: 900 });
    await page.goto("/", { waitUntil: "networkidle" });
    // Every block of content that is not a centred heading or lead: pictures, grids, carousels.
    const edges = await page.$$eval("main section > div.mx-auto > *", (blocks) =>
      blocks
        .filter((b) => !b.classList.contains("text-center"))
        .map((b) => Math.round(b.getBoundingClientRect().left)),
    );
    expect(edges.length).toBeGreaterThanOrEqual(6);
    expect(new Set(edges)).toEqual(new Set([edges[0]]));
  });

  it("draws the arrow of every select field (company size, department)", async () => {
    const page = await ctx.newPage({ width: 1280, height: 900 });
    await page.goto("/request-access", { waitUntil: "networkidle" });
    const selects = await page.$$eval("main select", (list) =>
      list.map((s) => {
        const style = getComputedStyle(s);
        return {
          image: style.backgroundImage,
          repeat: style.backgroundRepeat,
          colour: style.backgroundColor,
        };
      }),
    );
    expect(selects).toHaveLength(2);
    for (const { image, repeat, colour } of selects) {
      expect(image).toMatch(/^url\("data:image\/svg\+xml,/);
      expect(repeat).toBe("no-repeat");
      expect(colour).toBe("rgb(255, 255, 255)"); // the field's white, not lost to the arrow's classes
    }
  });

  it("shows each row of the cookie policy's tables as labelled lines at 390 px", async () => {
    const page = await ctx.newPage({ width: 390, height: 844, mobile: true });
    await page.goto("/cookies-policy", { waitUntil: "networkidle" });
    const tables = await page.$$eval("main table", (list) =>
      list.map((table) => ({
        right: table.getBoundingClientRect().right,
        labels: [...table.querySelectorAll("tbody td")].map(
          (td) => getComputedStyle(td, "::before").content,
        ),
      })),
    );
    expect(tables.length).toBeGreaterThan(0);
    for (const { right, labels } of tables) {
      expect(right).toBeLessThanOrEqual(390);
      expect(labels.length).toBeGreaterThan(0);
      for (const label of labels) expect(label).toMatch(/^".+"$/);
    }
    // At 1280 px it is a table again, with its header row shown.
    await page.setViewportSize({ width: 1280, height: 900 });
    expect(await page.locator("main thead").first().boundingBox()).toMatchObject({
      height: expect.any(Number),
    });
    expect((await page.locator("main thead").first().boundingBox())!.height).toBeGreaterThan(20);
  });
});
