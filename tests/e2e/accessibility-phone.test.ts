// Every page passes axe-core (WCAG 2.2 AA) on a phone, without a console error.
import { everyPageAccessibleAt } from "../support/axe.ts";
import { describeInBrowser } from "../support/browser.ts";

describeInBrowser("every page on a phone", (ctx) => {
  everyPageAccessibleAt(ctx, { width: 390, height: 844, mobile: true });
});
