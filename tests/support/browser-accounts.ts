// Accounts made through the site in a browser: signed up on /auth, confirmed by the emailed link.
import type { Page } from "playwright-core";
import { emailTo, linkIn, PASSWORD } from "./auth.ts";
import { toastText } from "./forms.ts";
import type { TestSmtp } from "./smtp.ts";

/** Signs up on /auth and opens the confirmation link: the page ends signed in at /. */
export async function signUpAndConfirm(page: Page, smtp: TestSmtp, email: string): Promise<void> {
  await page.goto("/auth");
  const form = page.getByRole("form", { name: "Sign in" });
  await form.getByLabel("Email").fill(email);
  await form.getByLabel("Password").fill(PASSWORD);
  await form.getByRole("button", { name: "Sign up" }).click();
  await toastText(page, "Success!").waitFor();
  await page.goto(linkIn(await emailTo(smtp, email, "Confirm your Revwise account")));
}
