// Browser helpers for the visitor forms.
import type { Locator, Page } from "playwright-core";

/** Ticks "I'm not a robot" and waits until the widget has solved the proof of work. */
export async function solveCaptcha(scope: Locator | Page): Promise<void> {
  const widget = scope.locator("altcha-widget");
  await widget.locator("label", { hasText: "I'm not a robot" }).click();
  await widget
    .locator("[data-state=verified]")
    .first()
    .waitFor({ state: "attached", timeout: 45_000 });
}

export const toastText = (page: Page, title: string) =>
  page.locator("[data-toaster]").getByText(title, { exact: true });
