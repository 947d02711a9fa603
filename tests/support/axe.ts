// axe-core in the page, against WCAG 2.2 AA, once the page has settled: the rules the page breaks,
// each with (up to three of) the elements that break it. Animations that end (a step fading in)
// are waited for first: half-way through a fade, text is lighter than it will be, and axe would
// judge a contrast nobody reads. Endless ones (a looping banner) are judged as they are.
import AxeBuilder from "@axe-core/playwright";
import type { Page } from "playwright-core";
import { expect, it } from "vitest";
import type { BrowserContextInfo } from "./browser.ts";
import { allRoutes } from "./routes.ts";

export async function axeViolations(page: Page): Promise<string[]> {
  await page.evaluate(() =>
    Promise.all(
      document
        .getAnimations()
        .filter((a) => a.effect?.getComputedTiming().endTime !== Infinity)
        .map((a) => a.finished.catch(() => {})),
    ),
  );
  const result = await new AxeBuilder({ page })
    .withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"])
    .analyze();
  return result.violations.map(
    (v) =>
      `${v.id}: ${v.nodes
        .map((n) => n.target.join(" "))
        .slice(0, 3)
        .join(", ")}`,
  );
}

/** A suite that loads every page at one size and finds no WCAG 2.2 AA violation and no console error. */
export function everyPageAccessibleAt(
  ctx: BrowserContextInfo,
  size: { width: number; height: number; mobile: boolean },
): void {
  it(
    `has no WCAG 2.2 AA violation and no console error on any page at ${size.width} px`,
    { timeout: 300_000 },
    async () => {
      const page = await ctx.newPage(size);
      for (const route of allRoutes) {
        await page.goto(route, { waitUntil: "networkidle" });
        expect(await axeViolations(page), `${route} at ${size.width}px`).toEqual([]);
      }
    },
  );
}
