// In a real browser, on /account: a password change asks a password session for the current
// password (and emails a notice); "Download my data" saves the account's data as JSON; "Delete
// account" asks for the current password (or an emailed code for an account without one), then
// signs out, says so on the home page, and the account no longer signs in.
import fs from "node:fs/promises";
import type { Page } from "playwright-core";
import { expect, it } from "vitest";
import { codeIn, emailTo, linkIn, PASSWORD, uniqueEmail } from "../support/auth.ts";
import { axeViolations } from "../support/axe.ts";
import { describeInBrowser } from "../support/browser.ts";
import { confirmedAccount, logOut, signInOnAuth } from "../support/browser-accounts.ts";
import { toastText } from "../support/forms.ts";
import { type TestSmtp, withTestSmtp } from "../support/smtp.ts";

let smtp: TestSmtp;

describeInBrowser(
  "account page: password, data and deletion",
  (ctx) => {
    /** A confirmed account, signed in again with its password (a session with no emailed link). */
    async function passwordSession(label: string) {
      const { page, email } = await confirmedAccount(ctx, smtp, label);
      await logOut(page);
      await signInOnAuth(page, email);
      await page.waitForURL((url) => url.pathname === "/");
      await page.goto("/account");
      await page.getByRole("region", { name: "Profile" }).waitFor();
      return { page, email };
    }

    const fieldError = (page: Page, text: string) =>
      page.getByText(text, { exact: true }).waitFor();

    it("changes the password only with the current one, and emails a notice", async () => {
      const { page, email } = await passwordSession("trust-password");
      const password = page.getByRole("region", { name: "Password" });
      const submit = password.getByRole("button", { name: "Change password" });
      await password.getByLabel("New password", { exact: true }).fill("Second-Password-77");
      await password.getByLabel("Confirm new password").fill("Second-Password-77");
      ctx.allowConsoleError(/status of 400/);
      await submit.click();
      await fieldError(page, "Enter your current password.");
      const current = password.getByLabel("Current password");
      await expect.poll(() => current.evaluate((f) => f === document.activeElement)).toBe(true);
      expect(await axeViolations(page)).toEqual([]);

      await current.fill("Not-My-Password-1");
      await submit.click();
      await fieldError(
        page,
        "That's not your current password. Forgot it? Sign out and use “Forgot password?”.",
      );
      await current.fill(PASSWORD);
      await submit.click();
      await toastText(page, "Password changed").waitFor();
      const notice = await emailTo(smtp, email, "Your Revwise password was changed");
      expect(notice.text).toContain(`${ctx.baseUrl}/account`);

      await logOut(page);
      await signInOnAuth(page, email, "Second-Password-77");
      await page.waitForURL((url) => url.pathname === "/");
    });

    it("downloads the account's data as a JSON file", async () => {
      const { page, email } = await passwordSession("trust-download");
      const region = page.getByRole("region", { name: "Your data" });
      const downloading = page.waitForEvent("download");
      await region.getByRole("button", { name: "Download my data" }).click();
      const file = await downloading;
      expect(file.suggestedFilename()).toBe("revwise-my-data.json");
      const data = JSON.parse(await fs.readFile((await file.path())!, "utf8")) as {
        account: { email: string };
        sessions: { current: boolean }[];
        factors: unknown[];
      };
      expect(data.account.email).toBe(email);
      expect(data.sessions.filter((s) => s.current)).toHaveLength(1);
      expect(data.factors).toEqual([]);
      await toastText(page, "Download ready").waitFor();
    });

    it("deletes the account with the current password: signed out, told, and gone", async () => {
      const { page, email } = await passwordSession("trust-delete");
      const region = page.getByRole("region", { name: "Delete account" });
      await region.getByRole("button", { name: "Delete my account…" }).click();
      const form = region.getByRole("form", { name: "Delete your account" });
      await form.waitFor();
      expect(await axeViolations(page)).toEqual([]);
      ctx.allowConsoleError(/status of 400/);
      await form.getByLabel("Current password").fill("Not-My-Password-1");
      await form.getByRole("button", { name: "Delete my account for good" }).click();
      await fieldError(page, "That's not your current password.");
      await form.getByLabel("Current password").fill(PASSWORD);
      // The browser forgets its session: its sign-out, of a session the deletion ended, is 403.
      ctx.allowConsoleError(/status of 403/);
      await form.getByRole("button", { name: "Delete my account for good" }).click();

      await page.waitForURL((url) => url.pathname === "/");
      await toastText(page, "Account deleted").waitFor();
      await page.getByRole("banner").getByRole("link", { name: "Request Access" }).waitFor();
      await emailTo(smtp, email, "Your Revwise account was deleted");
      // The password no longer signs in.
      ctx.allowConsoleError(/status of 400/);
      await signInOnAuth(page, email);
      await page.getByText("Invalid login credentials").first().waitFor();
    });

    it("deletes an account without a password with an emailed code", async () => {
      const page = await ctx.newPage();
      const email = uniqueEmail("trust-delete-code");
      await page.goto("/auth");
      const signIn = page.getByRole("form", { name: "Sign in" });
      await signIn.getByLabel("Email").fill(email);
      await signIn.getByRole("button", { name: "Email me a sign-in link" }).click();
      await toastText(page, "Check your email").waitFor();
      await page.goto(linkIn(await emailTo(smtp, email, "Your Revwise sign-in link")));
      await page.getByRole("banner").getByRole("button", { name: "Logout" }).waitFor();
      await page.goto("/account");

      const region = page.getByRole("region", { name: "Delete account" });
      await region.getByRole("button", { name: "Delete my account…" }).click();
      await region.getByRole("button", { name: "Email me a code instead" }).click();
      const form = region.getByRole("form", { name: "Delete your account" });
      await form.getByLabel("Code from your email").waitFor();
      expect(await axeViolations(page)).toEqual([]);
      const code = codeIn(await emailTo(smtp, email, "Your Revwise confirmation code"));
      await form.getByLabel("Code from your email").fill(code);
      ctx.allowConsoleError(/status of 403/);
      await form.getByRole("button", { name: "Delete my account for good" }).click();
      await page.waitForURL((url) => url.pathname === "/");
      await toastText(page, "Account deleted").waitFor();
      await emailTo(smtp, email, "Your Revwise account was deleted");
    });
  },
  withTestSmtp((s) => (smtp = s)),
);
