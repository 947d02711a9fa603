// In a real browser, with the emails read from a real SMTP server: an account email's link opens
// the site's page for it (/auth/confirm), which uses nothing until its button is pressed (a mail
// scanner opens links, with or without JavaScript). Pressed, it confirms a sign-up, signs in by a
// sign-in link (on to `next`) and opens the new-password page for a recovery; a used link says so
// on the page. The site's client runs the PKCE flow: a link that reaches /auth/v1/verify redirects
// with a code, which the browser that asked for the email exchanges for its session.
import { expect, it } from "vitest";
import { emailTo, linkIn, pageLinkIn, uniqueEmail } from "../support/auth.ts";
import { axeViolations } from "../support/axe.ts";
import { describeInBrowser } from "../support/browser.ts";
import {
  logOut,
  openEmailLink,
  saveNewPasswordAndSignIn,
  signUpAndConfirm,
  signUpOnAuth,
} from "../support/browser-accounts.ts";
import { toastText } from "../support/forms.ts";
import { type TestSmtp, withTestSmtp } from "../support/smtp.ts";

let smtp: TestSmtp;

describeInBrowser(
  "email links",
  (ctx) => {
    /** Whether the address's account is confirmed yet. */
    const confirmed = async (email: string) =>
      (
        await ctx.db.query<{ confirmed: boolean }>(
          "SELECT email_confirmed_at IS NOT NULL AS confirmed FROM auth.users WHERE email = $1",
          [email],
        )
      )[0]!.confirmed;

    it("confirms a sign-up only when the page's button is pressed, then says a second use is too late", async () => {
      const page = await ctx.newPage();
      const email = uniqueEmail("page-confirm");
      await signUpOnAuth(page, email);
      const mail = await emailTo(smtp, email, "Confirm your Revwise account");
      const link = pageLinkIn(mail);
      expect(new URL(link).pathname).toBe("/auth/confirm");

      // A scanner's visit, with and without JavaScript, in browsers of its own: nothing is used.
      const scanner = await ctx.newPage({ javaScriptEnabled: false });
      await scanner.goto(link);
      // Playwright's text and role queries skip <noscript>; CSS reaches what the browser shows.
      const notice = scanner.locator("main noscript p");
      await expect(notice.isVisible()).resolves.toBe(true);
      expect(await notice.textContent()).toContain("This page needs JavaScript to finish");
      const pending = scanner.getByRole("button", { name: "Continue" });
      expect(await pending.getAttribute("aria-disabled")).toBe("true");
      const reader = await ctx.newPage();
      await reader.goto(link);
      const button = reader.getByRole("button", { name: "Confirm my email" });
      await button.waitFor();
      await reader
        .getByText("Confirm that this is your email address to finish creating your account.")
        .waitFor();
      expect(await axeViolations(reader)).toEqual([]);
      expect(await confirmed(email)).toBe(false);

      // The person's press, from the keyboard: confirmed, signed in, on to where the link leads.
      await button.focus();
      await reader.keyboard.press("Enter");
      await reader.waitForURL((url) => url.pathname === "/");
      await toastText(reader, "Email confirmed").waitFor();
      await reader.getByRole("banner").getByRole("button", { name: "Logout" }).waitFor();
      expect(await confirmed(email)).toBe(true);

      // The same link again: said on the page, with the way to a new one.
      ctx.allowConsoleError(/status of 403/);
      await openEmailLink(page, mail, "Confirm my email");
      await page
        .getByRole("alert")
        .getByText("This link has expired or was already used")
        .waitFor();
      await page.getByRole("link", { name: "Go to the sign-in page" }).waitFor();
      expect(await axeViolations(page)).toEqual([]);
    });

    it("signs in by an emailed link through the page, on to the page that asked", async () => {
      const page = await ctx.newPage();
      const email = uniqueEmail("page-magic");
      await signUpAndConfirm(page, smtp, email);
      await logOut(page);
      await page.goto("/auth?next=%2Faccount");
      const form = page.getByRole("form", { name: "Sign in" });
      await form.getByLabel("Email").fill(email);
      await form.getByRole("button", { name: "Email me a sign-in link" }).click();
      await toastText(page, "Check your email").waitFor();
      const mail = await emailTo(smtp, email, "Your Revwise sign-in link");
      await page.goto(pageLinkIn(mail));
      await page.getByText("Sign in to your Revwise account with this link.").waitFor();
      await page.getByRole("button", { name: "Sign in", exact: true }).click();
      await page.waitForURL((url) => url.pathname === "/account");
      await page.getByRole("region", { name: "Profile" }).getByText(email).first().waitFor();
    });

    it("opens the new-password page from a recovery email through the page", async () => {
      const page = await ctx.newPage();
      const email = uniqueEmail("page-recovery");
      await signUpAndConfirm(page, smtp, email);
      await logOut(page);
      await page.goto("/auth");
      await page.getByRole("button", { name: "Forgot password?" }).click();
      const recover = page.getByRole("form", { name: "Reset your password" });
      await recover.getByLabel("Email").fill(email);
      await recover.getByRole("button", { name: "Send reset link" }).click();
      await toastText(page, "Check your email").waitFor();
      const mail = await emailTo(smtp, email, "Reset your Revwise password");
      await openEmailLink(page, mail, "Choose a new password");
      await page.waitForURL((url) => url.pathname === "/auth/reset-password");
      await saveNewPasswordAndSignIn(page, email, "Another-New-Password-7");
    });

    it("says a link cut short is incomplete, and uses nothing", async () => {
      const page = await ctx.newPage();
      await page.goto("/auth/confirm?type=signup");
      await page.getByRole("alert").getByText("This link is incomplete.").waitFor();
      expect(await page.getByRole("button").filter({ hasText: "Confirm" }).count()).toBe(0);
    });

    it("runs the PKCE flow: /verify's redirect carries a code that the asking browser exchanges", async () => {
      const page = await ctx.newPage();
      const email = uniqueEmail("page-pkce");
      await signUpOnAuth(page, email);
      const link = linkIn(await emailTo(smtp, email, "Confirm your Revwise account"));
      expect(new URL(link).searchParams.get("token")).toMatch(/^pkce_/);
      // The redirect carries a code and no session; supabase-js exchanges it and drops it.
      const redirects: string[] = [];
      page.on("response", (response) => {
        const location = response.headers()["location"];
        if (location) redirects.push(location);
      });
      await page.goto(link);
      await page.getByRole("banner").getByRole("button", { name: "Logout" }).waitFor();
      expect(redirects).toHaveLength(1);
      expect(new URL(redirects[0]!).searchParams.get("code")).toMatch(/^[0-9a-f-]{36}$/);
      expect(redirects[0]).not.toContain("access_token");
      await expect.poll(() => new URL(page.url()).search).toBe("");
      expect(await confirmed(email)).toBe(true);
    });
  },
  withTestSmtp((s) => (smtp = s)),
);
