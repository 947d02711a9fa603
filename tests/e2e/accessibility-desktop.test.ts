// Every page passes axe-core (WCAG 2.2 AA) on a desktop, without a console error.
import { everyPageAccessibleAt } from "../support/axe.ts";
import { describeInBrowser } from "../support/browser.ts";

describeInBrowser("every page on a desktop", (ctx) => {
  everyPageAccessibleAt(ctx, { width: 1280, height: 900, mobile: false });
});
