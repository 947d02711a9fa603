// In a real browser: on /account each session has its own "Sign out" (another device's ends that
// session alone; this device's signs out here), the count of the others takes the focus after one
// goes; an email change asked for and not confirmed yet is still shown after a reload, its codes
// taken there; /auth greets someone signed in as such, never with "Sign in to your account".
import type { Page } from "playwright-core";
import { expect, it } from "vitest";
import { codeIn, emailTo, uniqueEmail } from "../support/auth.ts";
import { axeViolations } from "../support/axe.ts";
import { describeInBrowser } from "../support/browser.ts";
import { confirmedAccount, signInOnAuth } from "../support/browser-accounts.ts";
import { toastText } from "../support/forms.ts";
import { type TestSmtp, withTestSmtp } from "../support/smtp.ts";

let smtp: TestSmtp;

const header = (page: Page) => page.getByRole("banner");

describeInBrowser(
  "account: sessions, a pending email change, the signed-in /auth",
  (ctx) => {
    const signedUp = (label: string) => confirmedAccount(ctx, smtp, label);

    /** Another device (a browser context of its own) signed in with the password. */
    async function anotherDevice(email: string) {
      const page = await ctx.newPage();
      await signInOnAuth(page, email);
      await page.waitForURL((url) => url.pathname === "/");
      await header(page).getByRole("button", { name: "Logout" }).waitFor();
      return page;
    }

    const sessionCount = async (email: string) =>
      (
        await ctx.db.query<{ n: number }>(
          `SELECT count(*)::int AS n FROM auth.sessions s JOIN auth.users u ON u.id = s.user_id
           WHERE u.email = $1`,
          [email],
        )
      )[0]!.n;

    /** Whether the device's session still opens its account page. */
    async function stillSignedIn(page: Page): Promise<boolean> {
      await page.goto("/account");
      const profile = page.getByRole("region", { name: "Profile" });
      const prompt = page.getByRole("heading", { name: "Sign in to see your account" });
      await profile.or(prompt).first().waitFor();
      return profile.isVisible();
    }

    // Three browsers sign in: on a loaded machine that alone can take most of a minute.
    it("signs out one chosen device at a time, this one last", { timeout: 150_000 }, async () => {
      const { page, email } = await signedUp("one-device");
      const [b, c] = [await anotherDevice(email), await anotherDevice(email)];
      await page.goto("/account");
      const sessions = page.getByRole("region", { name: "Where you're signed in" });
      await sessions.getByText("Signed in on 2 other devices.").waitFor();
      expect(await sessions.getByRole("listitem").count()).toBe(3);
      expect(await axeViolations(page)).toEqual([]);

      // Each row names its device in its button; this device's says so.
      const others = sessions.getByRole("button", {
        name: /^Sign out (?!this device|other devices).+, signed in /,
      });
      expect(await others.count()).toBe(2);
      const own = sessions.getByRole("button", { name: /^Sign out this device/ });
      expect(await own.count()).toBe(1);

      await others.first().focus();
      await page.keyboard.press("Enter");
      await toastText(page, "Device signed out").waitFor();
      const summary = sessions.getByText("Signed in on 1 other device.");
      await summary.waitFor();
      await expect.poll(() => summary.evaluate((p) => p === document.activeElement)).toBe(true);
      expect(await sessions.getByRole("listitem").count()).toBe(2);
      expect(await sessionCount(email)).toBe(2);
      // Exactly one of the two other devices was signed out (its stored session is refused, 403);
      // this one and the other go on.
      ctx.allowConsoleError(/status of 403/);
      expect([await stillSignedIn(b), await stillSignedIn(c)].sort()).toEqual([false, true]);

      await own.click();
      await page.waitForURL((url) => url.pathname === "/");
      await toastText(page, "Logged out successfully").waitFor();
      await header(page).getByRole("link", { name: "Request Access" }).waitFor();
      expect(await sessionCount(email)).toBe(1);
    });

    it("shows an email change waiting for its confirmation after a reload, and takes its codes there", async () => {
      const { page, email } = await signedUp("pending-move");
      const next = uniqueEmail("pending-moved");
      await page.goto("/account");
      const profile = page.getByRole("region", { name: "Profile" });
      await profile.getByLabel("New email address").fill(next);
      await profile.getByRole("button", { name: "Change email" }).click();
      await toastText(page, "Check both inboxes").waitFor();

      await page.reload();
      await profile.getByText(`to move your account to ${next}`, { exact: false }).waitFor();
      const toNew = profile.getByLabel(`6-digit code sent to ${next}`);
      const toCurrent = profile.getByLabel(`6-digit code sent to ${email}`);
      await toNew.waitFor();
      await toCurrent.waitFor();
      // Shown as the page opened: no field took the focus from the top of the page.
      expect(await toNew.evaluate((f) => f === document.activeElement)).toBe(false);
      expect(await axeViolations(page)).toEqual([]);

      await toNew.fill(codeIn(await emailTo(smtp, next, "Confirm your new Revwise email address")));
      await page.keyboard.press("Enter");
      await profile.getByText(`${next} confirmed.`).waitFor();
      await toCurrent.fill(
        codeIn(await emailTo(smtp, email, "Confirm the change of your Revwise email address")),
      );
      await page.keyboard.press("Enter");
      await toastText(page, "Email address updated").waitFor();
      await profile.getByText(`Current email: ${next}`).waitFor();

      // Nothing pending any more: a reload shows the form, not the codes.
      await page.reload();
      await profile.getByLabel("New email address").waitFor();
      expect(await profile.getByLabel(/6-digit code sent to/).count()).toBe(0);
    });

    it("greets someone signed in on /auth as signed in, without asking them to sign in", async () => {
      const { page } = await signedUp("signed-in-auth");
      await page.goto("/auth");
      await page.getByRole("heading", { level: 1, name: "Your account" }).waitFor();
      await page.getByRole("heading", { name: "You're signed in" }).waitFor();
      expect(await page.getByText("Sign in to your account").isVisible()).toBe(false);
      expect(await page.getByText("Enter your credentials below").isVisible()).toBe(false);
      expect(await page.getByRole("heading", { level: 1 }).count()).toBe(1);
      expect(await axeViolations(page)).toEqual([]);

      // Signed out: the sign-in heading again, alone.
      const visitor = await ctx.newPage();
      await visitor.goto("/auth");
      await visitor.getByRole("heading", { level: 1, name: "Sign in to your account" }).waitFor();
      expect(await visitor.getByRole("heading", { level: 1 }).count()).toBe(1);
      expect(await visitor.getByText("Your account", { exact: true }).isVisible()).toBe(false);
    });
  },
  withTestSmtp((s) => (smtp = s)),
);
