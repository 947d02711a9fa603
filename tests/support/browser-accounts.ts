// Accounts made through the site in a browser: signed up on /auth, confirmed by the emailed link;
// logging out from the header; the authenticator-app code step (its focus, a wrong code).
import type { ParsedMail } from "mailparser";
import type { Locator, Page } from "playwright-core";
import { expect } from "vitest";
import { emailTo, pageLinkIn, PASSWORD, uniqueEmail } from "./auth.ts";
import type { BrowserContextInfo } from "./browser.ts";
import { toastText } from "./forms.ts";
import type { TestSmtp } from "./smtp.ts";

/** Signs up on /auth (unconfirmed until its emailed link is opened); returns the sign-in form. */
export async function signUpOnAuth(page: Page, email: string): Promise<Locator> {
  await page.goto("/auth");
  const form = page.getByRole("form", { name: "Sign in" });
  await form.getByLabel("Email").fill(email);
  await form.getByLabel("Password").fill(PASSWORD);
  await form.getByRole("button", { name: "Sign up" }).click();
  await toastText(page, "Success!").waitFor();
  return form;
}

/** Signs in on /auth with a password; the caller waits for where it leads. */
export async function signInOnAuth(page: Page, email: string, password = PASSWORD): Promise<void> {
  await page.goto("/auth");
  const form = page.getByRole("form", { name: "Sign in" });
  await form.getByLabel("Email").fill(email);
  await form.getByLabel("Password").fill(password);
  await form.getByRole("button", { name: "Sign in", exact: true }).click();
}

/**
 * Opens an account email's link as its reader does: the site's page for it, whose button (named
 * as the email's) uses the link; the caller waits for where it leads.
 */
export async function openEmailLink(page: Page, mail: ParsedMail, button: string): Promise<void> {
  await page.goto(pageLinkIn(mail));
  await page.getByRole("button", { name: button, exact: true }).click();
}

/** Signs up on /auth and opens the confirmation link: the page ends signed in at /. */
export async function signUpAndConfirm(page: Page, smtp: TestSmtp, email: string): Promise<void> {
  await signUpOnAuth(page, email);
  const mail = await emailTo(smtp, email, "Confirm your Revwise account");
  await openEmailLink(page, mail, "Confirm my email");
  await page.waitForURL((url) => url.pathname === "/");
}

/**
 * A new page with a new account (an address made from `label`), signed up on /auth and confirmed
 * by its link: signed in, its header showing Logout.
 */
export async function confirmedAccount(
  ctx: BrowserContextInfo,
  smtp: TestSmtp,
  label: string,
): Promise<{ page: Page; email: string }> {
  const page = await ctx.newPage();
  const email = uniqueEmail(label);
  await signUpAndConfirm(page, smtp, email);
  await page.getByRole("banner").getByRole("button", { name: "Logout" }).waitFor();
  return { page, email };
}

/** Logs out from the header and waits until it is done (the page may already be at /). */
export async function logOut(page: Page) {
  await page.getByRole("banner").getByRole("button", { name: "Logout" }).click();
  await toastText(page, "Logged out successfully").waitFor();
  await page.getByRole("banner").getByRole("link", { name: "Request Access" }).waitFor();
  expect(new URL(page.url()).pathname).toBe("/");
}

/** Asks for a password reset on /auth (or `from`, a path of it): the reset email is on its way. */
export async function askForRecovery(page: Page, email: string, from = "/auth"): Promise<void> {
  await page.goto(from);
  await page.getByRole("button", { name: "Forgot password?" }).click();
  const recover = page.getByRole("form", { name: "Reset your password" });
  await recover.getByLabel("Email").fill(email);
  await recover.getByRole("button", { name: "Send reset link" }).click();
  await toastText(page, "Check your email").waitFor();
}

/** Asks for a password reset on /auth and opens the emailed link: the page ends at the reset page. */
export async function openRecoveryLink(page: Page, smtp: TestSmtp, email: string): Promise<void> {
  await askForRecovery(page, email);
  const mail = await emailTo(smtp, email, "Reset your Revwise password");
  await openEmailLink(page, mail, "Choose a new password");
  await page.waitForURL((url) => url.pathname === "/auth/reset-password");
}

/**
 * Saves `password` on the reset page, then signs out and in again with it: the page ends at /,
 * signed in.
 */
export async function saveNewPasswordAndSignIn(page: Page, email: string, password: string) {
  const reset = page.getByRole("form", { name: "Choose a new password" });
  await reset.getByLabel("New password", { exact: true }).fill(password);
  await reset.getByLabel("Confirm new password").fill(password);
  await reset.getByRole("button", { name: "Save new password" }).click();
  await page.waitForURL((url) => url.pathname === "/");
  await toastText(page, "Password updated").waitFor();
  await logOut(page);
  await signInOnAuth(page, email, password);
  await page.waitForURL((url) => url.pathname === "/");
}

/** The authenticator-app code step appeared in place of another view: its heading has the focus. */
export async function expectCodeStepFocused(scope: Page | Locator): Promise<void> {
  const heading = scope.getByRole("heading", { name: "Enter your verification code" });
  await expect.poll(() => heading.evaluate((h) => h === document.activeElement)).toBe(true);
}

/**
 * Sends a wrong code from an authenticator-app code form (its button `submit`): the message shows
 * under the field, which is marked invalid, described by it, and has the focus again for the next
 * code. The caller allows the console's 422.
 */
export async function sendWrongAppCode(form: Locator, submit: string): Promise<void> {
  const field = form.getByLabel("6-digit code from your app");
  await field.fill("000000");
  await form.getByRole("button", { name: submit }).click();
  const message = form.getByText(
    "That code didn't match. Check the time on your phone and enter the newest code.",
    { exact: true },
  );
  await message.waitFor();
  expect(await field.getAttribute("aria-invalid")).toBe("true");
  const messageId = await message.getAttribute("id");
  expect(messageId).toBeTruthy();
  expect((await field.getAttribute("aria-describedby"))?.split(" ")).toContain(messageId);
  await expect.poll(() => field.evaluate((f) => f === document.activeElement)).toBe(true);
}

/** The claims of the session the page stores (supabase-js's access token), or null without one. */
export const sessionClaims = (page: Page) =>
  page.evaluate(() => {
    const key = Object.keys(localStorage).find((k) => /^sb-.*-auth-token$/.test(k));
    const stored = JSON.parse(localStorage.getItem(key ?? "") ?? "null") as {
      access_token: string;
    } | null;
    if (!stored) return null;
    const payload = stored.access_token.split(".")[1]!.replace(/-/g, "+").replace(/_/g, "/");
    return JSON.parse(atob(payload)) as { aal: string; amr: { method: string }[] };
  });
