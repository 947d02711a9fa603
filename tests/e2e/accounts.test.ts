// In a real browser: sign up, confirm by the emailed link, logout, failed and successful
// sign-in, the session surviving a reload, and password recovery.
import { expect, it } from "vitest";
import { emailTo, linkIn, PASSWORD, uniqueEmail } from "../support/auth.ts";
import { describeInBrowser } from "../support/browser.ts";
import { logOut, signUpAndConfirm } from "../support/browser-accounts.ts";
import { toastText } from "../support/forms.ts";
import { startSmtp, type TestSmtp } from "../support/smtp.ts";

let smtp: TestSmtp;

describeInBrowser(
  "accounts",
  (ctx) => {
    it("signs up (no navigation), confirms by the emailed link, logs out, signs in again and stays signed in across reloads", async () => {
      const page = await ctx.newPage();
      const email = uniqueEmail("browser");
      await page.goto("/auth");
      await page.getByRole("heading", { level: 1, name: "Sign in to your account" }).waitFor();
      await page.getByText("Enter your credentials below").waitFor();
      const form = page.getByRole("form", { name: "Sign in" });
      await expect(form.getByLabel("Email").getAttribute("placeholder")).resolves.toBe(
        "Enter your email",
      );
      await expect(form.getByLabel("Email").getAttribute("type")).resolves.toBe("email");
      await expect(form.getByLabel("Password").getAttribute("placeholder")).resolves.toBe(
        "Enter your password",
      );

      await form.getByLabel("Email").fill(email);
      await form.getByLabel("Password").fill(PASSWORD);
      await form.getByRole("button", { name: "Sign up" }).click();
      await toastText(page, "Success!").waitFor();
      await toastText(page, "Please check your email for verification.").waitFor();
      expect(new URL(page.url()).pathname).toBe("/auth");

      // Not confirmed yet: the service's message, in a destructive toast.
      ctx.allowConsoleError(/status of 400/);
      await form.getByRole("button", { name: "Sign in" }).click();
      await toastText(page, "Email not confirmed").waitFor();

      const link = linkIn(await emailTo(smtp, email, "Confirm your Revwise account"));
      expect(new URL(link).searchParams.get("redirect_to")).toBe(`${ctx.baseUrl}/`);
      await page.goto(link);
      await page.waitForURL((url) => url.pathname === "/" && url.hash === "");
      await page.getByRole("banner").getByRole("button", { name: "Logout" }).waitFor();
      await toastText(page, "Email confirmed").waitFor();

      await page.reload();
      await page.getByRole("banner").getByRole("button", { name: "Logout" }).waitFor();

      await logOut(page);
      expect(
        await page.evaluate(() =>
          Object.keys(localStorage).filter((k) => k.includes("auth-token")),
        ),
      ).toEqual([]);

      await page.goto("/auth");
      const again = page.getByRole("form", { name: "Sign in" });
      await again.getByLabel("Email").fill(email);
      await again.getByLabel("Password").fill("Wrong-Password-1");
      const signIn = again.getByRole("button", { name: "Sign in" });
      await signIn.click();
      await toastText(page, "Invalid login credentials").waitFor();
      expect(new URL(page.url()).pathname).toBe("/auth");

      await again.getByLabel("Password").fill(PASSWORD);
      await signIn.click();
      await page.waitForURL((url) => url.pathname === "/");
      await page.getByRole("banner").getByRole("button", { name: "Logout" }).waitFor();
      await page.goto("/faq");
      await page.getByRole("banner").getByRole("button", { name: "Logout" }).waitFor();
    });

    it("disables its buttons while a request runs", async () => {
      const page = await ctx.newPage();
      await page.route("**/auth/v1/token**", async (route) => {
        await new Promise((r) => setTimeout(r, 800));
        await route.continue();
      });
      ctx.allowConsoleError(/status of 400/);
      await page.goto("/auth");
      const form = page.getByRole("form", { name: "Sign in" });
      await form.getByLabel("Email").fill(uniqueEmail("slow"));
      await form.getByLabel("Password").fill(PASSWORD);
      await form.getByRole("button", { name: "Sign in" }).click();
      await page.waitForFunction(
        () =>
          [...document.querySelectorAll("form[aria-label='Sign in'] button")].filter(
            (b) => (b as HTMLButtonElement).disabled,
          ).length === 3, // Sign in, Sign up, Email me a sign-in link
      );
      await toastText(page, "Invalid login credentials").waitFor();
      expect(await form.getByRole("button", { name: "Sign up" }).isDisabled()).toBe(false);
    });

    it("recovers a forgotten password through the emailed link and the reset page", async () => {
      const page = await ctx.newPage();
      const email = uniqueEmail("forgot");
      await signUpAndConfirm(page, smtp, email);
      await logOut(page);

      await page.goto("/auth");
      await page.getByRole("button", { name: "Forgot password?" }).click();
      const recover = page.getByRole("form", { name: "Reset your password" });
      await recover.getByLabel("Email").fill(email);
      await recover.getByRole("button", { name: "Send reset link" }).click();
      await toastText(page, "Check your email").waitFor();

      await page.goto(linkIn(await emailTo(smtp, email, "Reset your Revwise password")));
      await page.waitForURL((url) => url.pathname === "/auth/reset-password");
      const reset = page.getByRole("form", { name: "Choose a new password" });
      await reset.getByLabel("New password", { exact: true }).fill("Short1");
      await reset.getByLabel("Confirm new password").fill("Short1");
      await reset.getByRole("button", { name: "Save new password" }).click();
      await reset.getByText("Password should be at least 8 characters.").waitFor();
      await reset.getByLabel("New password", { exact: true }).fill("A-Brand-New-Password-5");
      await reset.getByLabel("Confirm new password").fill("A-Brand-New-Password-5");
      await reset.getByRole("button", { name: "Save new password" }).click();
      await page.waitForURL((url) => url.pathname === "/");
      await toastText(page, "Password updated").waitFor();

      await logOut(page);
      await page.goto("/auth");
      const signIn = page.getByRole("form", { name: "Sign in" });
      await signIn.getByLabel("Email").fill(email);
      await signIn.getByLabel("Password").fill("A-Brand-New-Password-5");
      await signIn.getByRole("button", { name: "Sign in" }).click();
      await page.waitForURL((url) => url.pathname === "/");
    });

    it("explains an expired or used link instead of failing silently", async () => {
      const page = await ctx.newPage();
      await page.goto(
        `${ctx.baseUrl}/auth/v1/verify?token=${"0".repeat(56)}&type=signup&redirect_to=${encodeURIComponent(`${ctx.baseUrl}/`)}`,
      );
      await toastText(page, "Email link is invalid or has expired").waitFor();
      expect(new URL(page.url()).hash).toBe("");
    });
  },
  {
    env: async () => {
      smtp = await startSmtp();
      return {
        SMTP_URL: smtp.url,
        RATE_LIMIT_EMAIL_SENT: "1000",
        RATE_LIMIT_LEAD_EMAIL_SENT: "1000",
        RATE_LIMIT_EMAIL_IP: "1000",
      };
    },
    teardown: () => smtp.stop(),
  },
);
