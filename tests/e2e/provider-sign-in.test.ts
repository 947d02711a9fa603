// In a real browser: sign-in with an external provider from /auth. The buttons of the providers
// that are on are there from the first paint (before the page's script, and without it: plain
// links), the others never; a press goes to the provider (a real OpenID provider on loopback, as a
// company's Keycloak), its login page signs the person in, and the browser comes back signed in, on
// the page it was going to (`next`). axe finds nothing on the sign-in page with its buttons.
import type { Page } from "playwright-core";
import { expect, it } from "vitest";
import { uniqueEmail } from "../support/auth.ts";
import { axeViolations } from "../support/axe.ts";
import { describeInBrowser } from "../support/browser.ts";
import { confirmedAccount } from "../support/browser-accounts.ts";
import { startIdp, type TestIdp } from "../support/identity-provider.ts";
import { type TestSmtp, withTestSmtp } from "../support/smtp.ts";

let smtp: TestSmtp;
let idp: TestIdp;
const mail = withTestSmtp((s) => (smtp = s));

/** The provider's own login page: `subject` signs in there. */
async function signInAtProvider(page: Page, subject: string) {
  await page.getByRole("heading", { name: "Sign in to the test provider" }).waitFor();
  await page.getByLabel("Account").fill(subject);
  await page.getByRole("button", { name: "Sign in" }).click();
}

describeInBrowser(
  "sign-in with an external provider",
  (ctx) => {
    it("shows the buttons of the providers that are on from the first paint, as plain links", async () => {
      const page = await ctx.newPage();
      // The page's scripts held back: what shows is the prerendered page and its CSS.
      await page.route(/\/assets\/[\w.-]+\.js$/, () => {});
      await page.goto("/auth", { waitUntil: "domcontentloaded" });
      const company = page.getByRole("link", { name: "Continue with your company account" });
      await company.waitFor();
      expect(await company.getAttribute("href")).toBe("/auth/v1/authorize?provider=keycloak");
      for (const name of ["Google", "Microsoft", "GitHub", "GitLab"])
        expect(await page.getByRole("link", { name: `Continue with ${name}` }).count()).toBe(0);
      // Single sign-on is off here: its form never shows.
      expect(await page.getByRole("form", { name: "Sign in with SSO" }).count()).toBe(0);

      const noScript = await ctx.newPage({ javaScriptEnabled: false });
      await noScript.goto("/auth");
      await noScript.getByRole("link", { name: "Continue with your company account" }).waitFor();
      expect(await axeViolations(page)).toEqual([]);
    });

    it("signs in at the provider and comes back signed in, on the page it was going to", async () => {
      const email = uniqueEmail("provider-e2e");
      const subject = `e2e-${Date.now()}`;
      idp.accounts.set(subject, { email, email_verified: true, name: "Robin Vega" });
      const page = await ctx.newPage();
      await page.goto("/auth?next=/account");
      await page.getByRole("link", { name: "Continue with your company account" }).click();
      await signInAtProvider(page, subject);
      await page.waitForURL(`${ctx.baseUrl}/account`);
      await page.getByRole("region", { name: "Profile" }).waitFor();
      await expect.poll(() => page.locator("main").innerText()).toContain(email);
      // The session's tokens are gone from the address bar.
      expect(new URL(page.url()).hash).toBe("");
    });

    it("goes on to `next` when the sign-in form wakes while the session is being confirmed", async () => {
      const email = uniqueEmail("provider-slow");
      const subject = `e2e-slow-${Date.now()}`;
      idp.accounts.set(subject, { email, email_verified: true });
      const page = await ctx.newPage();
      // The client takes the tokens out of the address, then confirms them with the server before
      // it stores them. The sign-in form's code arrives in between: it is held until the address
      // is clear, and the server's first confirmation until that code has run.
      const arrived = () => /#access_token=/.test(page.url());
      await page.route(/\/assets\/sign-in-panel-[\w-]+\.js$/, async (route) => {
        if (arrived()) await page.waitForFunction(() => window.location.hash === "");
        await route.continue();
      });
      let held = false;
      await page.route("**/auth/v1/user", async (route) => {
        if (!held) {
          held = true;
          await page
            .locator('[data-island="sign-in"][data-hydrated]')
            .waitFor({ state: "attached" });
          await page.evaluate(() => new Promise((done) => requestIdleCallback(done)));
        }
        await route.continue();
      });
      await page.goto("/auth?next=/account");
      await page.getByRole("link", { name: "Continue with your company account" }).click();
      await signInAtProvider(page, subject);
      await page.waitForURL(`${ctx.baseUrl}/account`);
      await expect.poll(() => page.locator("main").innerText()).toContain(email);
      expect(held).toBe(true);
    });

    it("adds the company account on /account, then removes it (never the last method)", async () => {
      const { page, email } = await confirmedAccount(ctx, smtp, "link-provider");
      const subject = `e2e-link-${Date.now()}`;
      idp.accounts.set(subject, { email: uniqueEmail("link-other"), email_verified: true });
      await page.goto("/account");
      const methods = page.getByRole("region", { name: "Sign-in methods" });
      await methods.getByRole("button", { name: "Add Company account" }).click();
      await signInAtProvider(page, subject);
      await page.waitForURL(/\/account/);
      const list = methods.getByRole("list", { name: "Linked sign-in methods" });
      await list.getByText("Company account").waitFor();
      expect(await list.getByRole("listitem").count()).toBe(2);
      // Each says when it was added.
      for (const text of await list.getByRole("listitem").allInnerTexts())
        expect(text).toMatch(/Added [A-Z][a-z]{2} \d{1,2}, \d{4}, \d{1,2}:\d{2}/);
      expect(await axeViolations(page)).toEqual([]);
      await methods.getByRole("button", { name: /^Remove Company account/ }).click();
      await methods.getByText("Your only sign-in method can't be removed.").waitFor();
      expect(await list.getByRole("listitem").allInnerTexts()).toEqual([
        expect.stringContaining(email),
      ]);
    });

    it("says why when the provider's address is not verified, and signs nobody in", async () => {
      const subject = `e2e-unverified-${Date.now()}`;
      idp.accounts.set(subject, {
        email: uniqueEmail("provider-unverified"),
        email_verified: false,
      });
      const page = await ctx.newPage();
      await page.goto("/auth");
      await page.getByRole("link", { name: "Continue with your company account" }).click();
      await signInAtProvider(page, subject);
      await page.waitForURL(/\/auth\?/);
      await expect
        .poll(() => page.getByRole("status").allInnerTexts())
        .toContainEqual(expect.stringContaining("A confirmation email has been sent"));
      await page.getByRole("form", { name: "Sign in" }).waitFor();
    });
  },
  {
    env: async () => {
      idp = await startIdp({ path: "/realms/acme" });
      return {
        ...(await mail.env()),
        ...idp.env("KEYCLOAK"),
        GOTRUE_SECURITY_MANUAL_LINKING_ENABLED: "true",
      };
    },
    teardown: async () => {
      await mail.teardown();
      await idp.close();
    },
  },
);
