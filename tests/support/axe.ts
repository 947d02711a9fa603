// axe-core in the page, against WCAG 2.2 AA, once the page has settled: the rules the page breaks,
// each with (up to three of) the elements that break it. Animations that end (a step fading in)
// are waited for first: half-way through a fade, text is lighter than it will be, and axe would
// judge a contrast nobody reads. Endless ones (a looping banner) are judged as they are.
import AxeBuilder from "@axe-core/playwright";
import type { Page } from "playwright-core";

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
