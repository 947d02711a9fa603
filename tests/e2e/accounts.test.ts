// In a real browser: sign up, confirm by the emailed link, logout, failed and successful
// sign-in, the session surviving a reload, and password recovery (by code: email-codes.test.ts).
import type { Locator } from "playwright-core";
import { expect, it } from "vitest";
import type { ParsedMail } from "mailparser";
import { emailTo, pageLinkIn, PASSWORD, uniqueEmail } from "../support/auth.ts";
import { axeViolations } from "../support/axe.ts";
import { describeInBrowser } from "../support/browser.ts";
import {
  logOut,
  openEmailLink,
  openRecoveryLink,
  saveNewPasswordAndSignIn,
  signUpAndConfirm,
  signUpOnAuth,
} from "../support/browser-accounts.ts";
import { toastText } from "../support/forms.ts";
import { addressOf, startSmtp, type TestSmtp, withTestSmtp } from "../support/smtp.ts";

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

      // The step that takes the email's code replaced the form; back to it, the email is kept.
      await page.getByRole("heading", { name: "Confirm your email" }).waitFor();
      await page.getByRole("button", { name: "Back to sign in" }).click();
      expect(await form.getByLabel("Email").inputValue()).toBe(email);

      // Not confirmed yet: the service's message, in a destructive toast.
      ctx.allowConsoleError(/status of 400/);
      await form.getByLabel("Password").fill(PASSWORD);
      await form.getByRole("button", { name: "Sign in" }).click();
      await toastText(page, "Email not confirmed").waitFor();

      const mail = await emailTo(smtp, email, "Confirm your Revwise account");
      expect(new URL(pageLinkIn(mail)).searchParams.get("redirect_to")).toBe(`${ctx.baseUrl}/`);
      await openEmailLink(page, mail, "Confirm my email");
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

    it("keeps the focus on a pressed button while its request runs, and ignores presses meanwhile", async () => {
      const page = await ctx.newPage();
      const requests: string[] = [];
      // What the buttons send (the form's one read of the server's settings, to offer passkeys
      // when it wakes, is not one of them).
      page.on("request", (request) => {
        const { pathname } = new URL(request.url());
        if (pathname.startsWith("/auth/v1/") && pathname !== "/auth/v1/settings")
          requests.push(pathname);
      });
      // Each sign-in request is held until the test lets it through.
      const held: (() => void)[] = [];
      await page.route("**/auth/v1/token**", async (route) => {
        await new Promise<void>((release) => held.push(release));
        await route.continue();
      });
      const letOneThrough = async () => {
        await expect.poll(() => held.length).toBe(1);
        held.shift()!();
      };
      ctx.allowConsoleError(/status of 400/);
      await page.goto("/auth");
      const form = page.getByRole("form", { name: "Sign in" });
      await form.getByLabel("Email").fill(uniqueEmail("slow"));
      await form.getByLabel("Password").fill(PASSWORD);
      const signIn = form.getByRole("button", { name: "Sign in" });
      await signIn.focus();
      await page.keyboard.press("Enter");
      // Busy: Sign in, Sign up and Email me a sign-in link say so, and keep their place.
      await page.waitForFunction(
        () =>
          document.querySelectorAll("form[aria-label='Sign in'] button[aria-disabled='true']")
            .length === 3,
      );
      expect(await signIn.evaluate((b) => b === document.activeElement)).toBe(true);
      await page.keyboard.press("Enter");
      await letOneThrough();
      await toastText(page, "Invalid login credentials").waitFor();
      expect(requests).toEqual(["/auth/v1/token"]);
      await expect.poll(() => signIn.getAttribute("aria-disabled")).toBe("false");
      expect(await signIn.evaluate((b) => b === document.activeElement)).toBe(true);

      // Enter in a field presses the form's Sign in: ignored as well while it is busy.
      await form.getByLabel("Password").press("Enter");
      await expect.poll(() => signIn.getAttribute("aria-disabled")).toBe("true");
      await form.getByLabel("Password").press("Enter");
      await letOneThrough();
      await expect.poll(() => signIn.getAttribute("aria-disabled")).toBe("false");
      expect(requests).toEqual(["/auth/v1/token", "/auth/v1/token"]);
    });

    it("carries the email between sign-in and password recovery, never the password, and moves the focus to the new view", async () => {
      const page = await ctx.newPage();
      const sent: unknown[] = [];
      page.on("request", (request) => {
        if (new URL(request.url()).pathname === "/auth/v1/recover")
          sent.push((request.postDataJSON() as { email: unknown }).email);
      });
      const email = uniqueEmail("carried");
      const focused = (control: Locator) => control.evaluate((e) => e === document.activeElement);
      const values = () =>
        page
          .locator("main input")
          .evaluateAll((inputs) => inputs.map((i) => (i as HTMLInputElement).value));
      await page.goto("/auth");
      const signIn = page.getByRole("form", { name: "Sign in" });
      await signIn.getByLabel("Email").fill(email);
      await signIn.getByLabel("Password").fill(PASSWORD);
      await signIn.getByRole("button", { name: "Forgot password?" }).focus();
      await page.keyboard.press("Enter");

      const recover = page.getByRole("form", { name: "Reset your password" });
      await recover.waitFor();
      expect(await recover.getByLabel("Email").inputValue()).toBe(email);
      expect(await values()).not.toContain(PASSWORD);
      await expect
        .poll(() => focused(recover.getByRole("heading", { name: "Reset your password" })))
        .toBe(true);
      await recover.getByRole("button", { name: "Send reset link" }).click();
      await toastText(page, "Check your email").waitFor();
      expect(sent).toEqual([email]);

      // Sent: the step that takes the email's code, whose way back is the sign-in form, with the
      // email and without the password.
      const codeStep = page.getByRole("form", { name: "Code from the email" });
      await codeStep.getByRole("button", { name: "Back to sign in" }).focus();
      await page.keyboard.press("Enter");
      await signIn.waitFor();
      expect(await signIn.getByLabel("Email").inputValue()).toBe(email);
      expect(await signIn.getByLabel("Password").inputValue()).toBe("");
      await expect.poll(() => focused(signIn.getByLabel("Email"))).toBe(true);

      // An address typed in the recovery form comes back too; the password never.
      await signIn.getByLabel("Password").fill(PASSWORD);
      await signIn.getByRole("button", { name: "Forgot password?" }).click();
      const other = uniqueEmail("other");
      await recover.getByLabel("Email").fill(other);
      expect(await values()).not.toContain(PASSWORD);
      await recover.getByRole("button", { name: "Back to sign in" }).focus();
      await page.keyboard.press("Enter");
      await signIn.waitFor();
      expect(await signIn.getByLabel("Email").inputValue()).toBe(other);
      expect(await signIn.getByLabel("Password").inputValue()).toBe("");
      expect(sent).toEqual([email]);
      await expect.poll(() => focused(signIn.getByLabel("Email"))).toBe(true);
    });

    it("recovers a forgotten password through the emailed link and the reset page", async () => {
      const page = await ctx.newPage();
      const email = uniqueEmail("forgot");
      await signUpAndConfirm(page, smtp, email);
      await logOut(page);

      await openRecoveryLink(page, smtp, email);
      const reset = page.getByRole("form", { name: "Choose a new password" });
      await reset.getByLabel("New password", { exact: true }).fill("Short1");
      await reset.getByLabel("Confirm new password").fill("Short1");
      await reset.getByRole("button", { name: "Save new password" }).click();
      await reset.getByText("Password should be at least 8 characters.").waitFor();
      await saveNewPasswordAndSignIn(page, email, "A-Brand-New-Password-5");
    });

    it("says which field is missing before signing up or in, under the field, and sends nothing", async () => {
      const page = await ctx.newPage();
      const requests: string[] = [];
      // What the buttons send (the form's one read of the server's settings, to offer passkeys
      // when it wakes, is not one of them).
      page.on("request", (request) => {
        const { pathname } = new URL(request.url());
        if (pathname.startsWith("/auth/v1/") && pathname !== "/auth/v1/settings")
          requests.push(pathname);
      });
      await page.goto("/auth");
      const form = page.getByRole("form", { name: "Sign in" });
      const email = form.getByLabel("Email");
      const password = form.getByLabel("Password");
      await form.getByRole("button", { name: "Sign up" }).click();
      const missingEmail = form.getByText("Enter your email address.", { exact: true });
      const missingPassword = form.getByText("Enter your password.", { exact: true });
      await missingEmail.waitFor();
      await missingPassword.waitFor();
      // Each message is the description of its field, marked invalid; the first has the focus.
      for (const [field, message] of [
        [email, missingEmail],
        [password, missingPassword],
      ] as const) {
        expect(await field.getAttribute("aria-invalid")).toBe("true");
        expect((await field.getAttribute("aria-describedby"))?.split(" ")).toContain(
          await message.getAttribute("id"),
        );
      }
      await expect.poll(() => email.evaluate((e) => e === document.activeElement)).toBe(true);
      expect(await toastText(page, "Anonymous sign-ins are disabled").count()).toBe(0);
      expect(await axeViolations(page)).toEqual([]);

      // Typing in a field clears its message; Sign in checks the same way.
      await email.fill(uniqueEmail("empty"));
      await missingEmail.waitFor({ state: "detached" });
      await form.getByRole("button", { name: "Sign in" }).click();
      await expect.poll(() => password.evaluate((e) => e === document.activeElement)).toBe(true);
      await missingPassword.waitFor();
      expect(requests).toEqual([]);
    });

    it("offers to send the confirmation email again to an unconfirmed account signing in", async () => {
      const page = await ctx.newPage();
      const email = uniqueEmail("unconfirmed");
      const confirmations = (m: ParsedMail) =>
        addressOf(m) === email && m.subject === "Confirm your Revwise account";
      const form = await signUpOnAuth(page, email);
      await smtp.waitForCount(1, confirmations);
      // Back from the step that takes the email's code, as someone who closed the email would.
      await page.getByRole("button", { name: "Back to sign in" }).click();
      await form.getByLabel("Password").fill(PASSWORD);

      ctx.allowConsoleError(/status of 400/);
      const signIn = form.getByRole("button", { name: "Sign in" });
      await signIn.focus();
      await page.keyboard.press("Enter");
      await toastText(page, "Email not confirmed").waitFor();
      // The way out is right there, the next stop of the keyboard after Sign in.
      const resend = form.getByRole("button", { name: "Resend confirmation email" });
      await resend.waitFor();
      expect(await axeViolations(page)).toEqual([]);
      await page.keyboard.press("Tab");
      await expect.poll(() => resend.evaluate((b) => b === document.activeElement)).toBe(true);

      // A minute after the first email (the server sends at most one a minute, silently).
      await ctx.db.query(
        "UPDATE auth.users SET confirmation_sent_at = now() - interval '2 minutes' WHERE email = $1",
        [email],
      );
      await page.keyboard.press("Enter");
      await toastText(page, "Confirmation email sent").waitFor();
      await smtp.waitForCount(2, confirmations);
      // Its code is taken right here, as after signing up.
      await page.getByRole("heading", { name: "Confirm your email" }).waitFor();
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
  withTestSmtp((s) => (smtp = s)),
);

// The hour's email budget of one client address (RATE_LIMIT_EMAIL_IP), spent by the first email.
let limitedSmtp: TestSmtp;

describeInBrowser(
  "accounts: email budget spent",
  (ctx) => {
    it("says the hour's emails are spent and when to try again, not the server's raw words", async () => {
      const page = await ctx.newPage();
      await page.goto("/auth");
      const form = page.getByRole("form", { name: "Sign in" });
      const askForLink = async (email: string) => {
        await form.getByLabel("Email").fill(email);
        await form.getByRole("button", { name: "Email me a sign-in link" }).click();
      };
      await askForLink(uniqueEmail("budget-first"));
      await toastText(page, "Check your email").waitFor();
      // From the step that takes the first email's code, back to the form for another address.
      await page.getByRole("button", { name: "Back to sign in" }).click();

      ctx.allowConsoleError(/status of 429/);
      await askForLink(uniqueEmail("budget-second"));
      await toastText(
        page,
        "We've sent as many emails as we can for now. Please try again in an hour.",
      ).waitFor();
      expect(await toastText(page, "email rate limit exceeded").count()).toBe(0);
    });
  },
  {
    env: async () => {
      limitedSmtp = await startSmtp();
      return { SMTP_URL: limitedSmtp.url, RATE_LIMIT_EMAIL_IP: "1" };
    },
    teardown: () => limitedSmtp.stop(),
  },
);
