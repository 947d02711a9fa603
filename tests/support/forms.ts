// Browser helpers for the visitor forms.
import type { Locator, Page } from "playwright-core";

/**
 * Ticks "I'm not a robot" as a visitor would, whether the form is awake yet or not (before its
 * code arrives the control is a placeholder whose tick is kept), and waits until the widget has
 * solved the proof of work.
 */
export async function solveCaptcha(scope: Locator | Page): Promise<void> {
  await scope.getByText("I'm not a robot", { exact: true }).click();
  await scope
    .locator("altcha-widget")
    .locator("[data-state=verified]")
    .first()
    .waitFor({ state: "attached", timeout: 45_000 });
}

export const toastText = (page: Page, title: string) =>
  page.locator("[data-toaster]").getByText(title, { exact: true });

/**
 * Runs `action` and waits for a toast titled `title` that it showed: one that was not on the page
 * before it. Toasts close after 5 seconds, so counting them to tell a new one from earlier ones
 * depends on how fast the machine runs the steps in between.
 */
export async function expectNewToast(page: Page, title: string, action: () => Promise<void>) {
  await page
    .locator("[data-toaster] li")
    .evaluateAll((shown) => shown.forEach((toast) => toast.setAttribute("data-seen", "")));
  await action();
  await page
    .locator("[data-toaster] li:not([data-seen])")
    .filter({ has: page.getByText(title, { exact: true }) })
    .first()
    .waitFor();
}
