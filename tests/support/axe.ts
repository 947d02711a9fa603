// axe-core in the page, against WCAG 2.2 AA: the ids of the rules the page breaks.
import AxeBuilder from "@axe-core/playwright";
import type { Page } from "playwright-core";

export const axeViolations = async (page: Page): Promise<string[]> =>
  (
    await new AxeBuilder({ page })
      .withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"])
      .analyze()
  ).violations.map((v) => v.id);
