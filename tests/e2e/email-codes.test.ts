// In a real browser: every account email carries a link and a 6-digit code, and the page that sent
// it takes the code, which does what the link does (for someone who opens the email on another
// device, or whose mail scanner used the link up). Codes read from the real mailbox: a sign-in
// (back to `next`; an account with an authenticator app is asked for the app's code next), a
// sign-up's confirmation, a password recovery (on to the new password), and both codes of an email
// change on /account. A wrong code says so under the field, which keeps its place and the focus;
// the field has the focus when the step appears; axe on each step.
import { createClient } from "@supabase/supabase-js";
import type { Locator, Page } from "playwright-core";
import { expect, it } from "vitest";
import { stepAt, totpCode } from "../support/totp.ts";
import { mintApiKey } from "../../server/security/keys.ts";
import { TEST_JWT_SECRET } from "../support/app.ts";
import { codeIn, emailTo, PASSWORD, uniqueEmail } from "../support/auth.ts";
import { axeViolations } from "../support/axe.ts";
import { describeInBrowser } from "../support/browser.ts";
import {
  askForRecovery,
  expectCodeStepFocused,
  logOut,
  openEmailLink,
  saveNewPasswordAndSignIn,
  signUpOnAuth,
} from "../support/browser-accounts.ts";
import { toastText } from "../support/forms.ts";
import { type TestSmtp, withTestSmtp } from "../support/smtp.ts";

let smtp: TestSmtp;
const secret = new TextEncoder().encode(TEST_JWT_SECRET);

const CODE_LABEL = "6-digit code from the email";
const WRONG_CODE =
  "That code didn't work. Enter the code from the newest email: each code works once, within the hour.";

const focused = (control: Locator) => control.evaluate((e) => e === document.activeElement);

/** A code that is not `code`: its last digit changed. */
const wrong = (code: string) => code.slice(0, 5) + String((Number(code[5]) + 1) % 10);

/**
 * Sends a wrong code from an email-code form: the message shows under the field, which is marked
 * invalid, described by it, and has the focus again. The caller allows the console's 403.
 */
async function sendWrongEmailCode(
  form: Locator,
  code: string,
  submit: string,
  label = CODE_LABEL,
): Promise<void> {
  const field = form.getByLabel(label);
  await field.fill(wrong(code));
  await form.getByRole("button", { name: submit, exact: true }).click();
  const message = form.getByText(WRONG_CODE, { exact: true });
  await message.waitFor();
  expect(await field.getAttribute("aria-invalid")).toBe("true");
  const messageId = await message.getAttribute("id");
  expect((await field.getAttribute("aria-describedby"))?.split(" ")).toContain(messageId);
  await expect.poll(() => focused(field)).toBe(true);
}

describeInBrowser(
  "codes from account emails",
  (ctx) => {
    const serviceKey = () => mintApiKey(secret, "service_role");

    /** A confirmed account with a password, made with the admin API. */
    async function account(label: string): Promise<string> {
      const email = uniqueEmail(label);
      const admin = createClient(ctx.baseUrl, serviceKey(), {
        auth: { persistSession: false, autoRefreshToken: false },
      }).auth.admin;
      const { error } = await admin.createUser({ email, password: PASSWORD, email_confirm: true });
      expect(error).toBeNull();
      return email;
    }

    /** Asks /auth for a sign-in link for `email`: the page then shows the email's code step. */
    async function askForSignInCode(page: Page, email: string, path = "/auth") {
      await page.goto(path);
      const form = page.getByRole("form", { name: "Sign in" });
      await form.getByLabel("Email").fill(email);
      await form.getByRole("button", { name: "Email me a sign-in link" }).click();
      await toastText(page, "Check your email").waitFor();
      const step = page.getByRole("form", { name: "Code from the email" });
      await step.waitFor();
      return step;
    }

    it("signs in with the code of the sign-in email, after a wrong one, by keyboard, and goes on to `next`", async () => {
      const email = await account("code-sign-in");
      const page = await ctx.newPage();
      const step = await askForSignInCode(page, email, "/auth?next=/account");
      await page.getByRole("heading", { name: "Check your email" }).waitFor();
      // The step replaced the form: its field has the focus, described by the step's words.
      const field = step.getByLabel(CODE_LABEL);
      await expect.poll(() => focused(field)).toBe(true);
      const described = await field.evaluate((f) =>
        (f.getAttribute("aria-describedby") ?? "")
          .split(" ")
          .map((id) => document.getElementById(id)?.textContent ?? "")
          .join(" "),
      );
      expect(described).toContain(email);
      expect(await axeViolations(page)).toEqual([]);

      const code = codeIn(await emailTo(smtp, email, "Your Revwise sign-in link"));
      ctx.allowConsoleError(/status of 403/);
      await sendWrongEmailCode(step, code, "Sign in");
      expect(await axeViolations(page)).toEqual([]);

      await field.fill(code);
      await page.keyboard.press("Enter");
      await page.waitForURL((url) => url.pathname === "/account");
      await page.getByRole("region", { name: "Profile" }).getByText(email).first().waitFor();
      await page.getByRole("banner").getByRole("button", { name: "Logout" }).waitFor();
    });

    it("asks an account with an authenticator app for the app's code after the email's code", async () => {
      const email = await account("code-mfa");
      // The app set up through supabase-js, as the account page does it.
      const supabase = createClient(ctx.baseUrl, mintApiKey(secret, "anon"), {
        auth: { persistSession: false, autoRefreshToken: false },
      });
      await supabase.auth.signInWithPassword({ email, password: PASSWORD });
      const { data: enrolled } = await supabase.auth.mfa.enroll({ factorType: "totp" });
      const factor = enrolled as { id: string; totp: { secret: string } };
      const firstStep = stepAt(Date.now());
      const verified = await supabase.auth.mfa.challengeAndVerify({
        factorId: factor.id,
        code: totpCode(factor.totp.secret, firstStep),
      });
      expect(verified.error).toBeNull();

      const page = await ctx.newPage();
      const step = await askForSignInCode(page, email);
      await step
        .getByLabel(CODE_LABEL)
        .fill(codeIn(await emailTo(smtp, email, "Your Revwise sign-in link")));
      await step.getByRole("button", { name: "Sign in", exact: true }).click();
      await expectCodeStepFocused(page);
      const app = page.getByRole("form", { name: "Verification code" });
      await app
        .getByLabel("6-digit code from your app")
        .fill(totpCode(factor.totp.secret, firstStep + 1));
      await app.getByRole("button", { name: "Verify and sign in" }).click();
      await page.waitForURL((url) => url.pathname === "/");
      await toastText(page, "Signed in").waitFor();
      await page.getByRole("banner").getByRole("button", { name: "Logout" }).waitFor();
    });

    it("confirms a sign-up with the code of the confirmation email", async () => {
      const email = uniqueEmail("code-sign-up");
      const page = await ctx.newPage();
      const form = await signUpOnAuth(page, email);
      await toastText(page, "Please check your email for verification.").waitFor();
      expect(new URL(page.url()).pathname).toBe("/auth");
      await page.getByRole("heading", { name: "Confirm your email" }).waitFor();
      const step = page.getByRole("form", { name: "Code from the email" });
      const field = step.getByLabel(CODE_LABEL);
      await expect.poll(() => focused(field)).toBe(true);
      expect(await axeViolations(page)).toEqual([]);

      const code = codeIn(await emailTo(smtp, email, "Confirm your Revwise account"));
      ctx.allowConsoleError(/status of 403/);
      await sendWrongEmailCode(step, code, "Confirm email");
      await field.fill(code);
      await step.getByRole("button", { name: "Confirm email" }).click();
      await page.waitForURL((url) => url.pathname === "/");
      await toastText(page, "Email confirmed").waitFor();
      await page.getByRole("banner").getByRole("button", { name: "Logout" }).waitFor();

      // Confirmed: the password signs in.
      await logOut(page);
      await page.goto("/auth");
      await form.getByLabel("Email").fill(email);
      await form.getByLabel("Password").fill(PASSWORD);
      await form.getByRole("button", { name: "Sign in" }).click();
      await page.waitForURL((url) => url.pathname === "/");
      await page.getByRole("banner").getByRole("button", { name: "Logout" }).waitFor();
    });

    it("leads the code of the recovery email to the new password", async () => {
      const email = await account("code-recover");
      const page = await ctx.newPage();
      await askForRecovery(page, email);
      const step = page.getByRole("form", { name: "Code from the email" });
      const field = step.getByLabel(CODE_LABEL);
      await expect.poll(() => focused(field)).toBe(true);
      expect(await axeViolations(page)).toEqual([]);

      const code = codeIn(await emailTo(smtp, email, "Reset your Revwise password"));
      ctx.allowConsoleError(/status of 403/);
      await sendWrongEmailCode(step, code, "Continue");
      await field.fill(code);
      await page.keyboard.press("Enter");
      await page.waitForURL((url) => url.pathname === "/auth/reset-password");
      await saveNewPasswordAndSignIn(page, email, "Recovered-By-Code-8");
    });

    it("comes back to the page that sent the visitor after a password reset by code", async () => {
      const email = await account("code-recover-next");
      const page = await ctx.newPage();
      await askForRecovery(page, email, "/auth?next=%2Faccount");
      await page
        .getByRole("form", { name: "Code from the email" })
        .getByLabel(CODE_LABEL)
        .fill(codeIn(await emailTo(smtp, email, "Reset your Revwise password")));
      await page.keyboard.press("Enter");
      await page.waitForURL((url) => url.pathname === "/auth/reset-password");
      expect(new URL(page.url()).searchParams.get("next")).toBe("/account");
      const reset = page.getByRole("form", { name: "Choose a new password" });
      await reset.getByLabel("New password", { exact: true }).fill("Back-To-Account-9");
      await reset.getByLabel("Confirm new password").fill("Back-To-Account-9");
      await reset.getByRole("button", { name: "Save new password" }).click();
      await page.waitForURL((url) => url.pathname === "/account");
    });

    it("takes the code in a tab whose email's link was opened in another, signed in there", async () => {
      const email = await account("code-two-tabs");
      const page = await ctx.newPage();
      await page.goto("/auth?next=%2Faccount");
      const form = page.getByRole("form", { name: "Sign in" });
      await form.getByLabel("Email").fill(email);
      await form.getByRole("button", { name: "Email me a sign-in link" }).click();
      const step = page.getByRole("form", { name: "Code from the email" });
      await step.getByLabel(CODE_LABEL).waitFor();
      const mail = await emailTo(smtp, email, "Your Revwise sign-in link");
      const other = await page.context().newPage();
      await openEmailLink(other, mail, "Sign in");
      await other.waitForURL((url) => url.pathname === "/account");

      // The code the link used up: this tab is signed in all the same, and goes on.
      ctx.allowConsoleError(/status of 403/);
      await step.getByLabel(CODE_LABEL).fill(codeIn(mail));
      await page.keyboard.press("Enter");
      await page.waitForURL((url) => url.pathname === "/account");
    });

    it("changes the email with the codes sent to the new and the current address", async () => {
      const email = await account("code-moving");
      const next = uniqueEmail("code-moved");
      const page = await ctx.newPage();
      await page.goto("/auth");
      const signIn = page.getByRole("form", { name: "Sign in" });
      await signIn.getByLabel("Email").fill(email);
      await signIn.getByLabel("Password").fill(PASSWORD);
      await signIn.getByRole("button", { name: "Sign in" }).click();
      await page.waitForURL((url) => url.pathname === "/");
      await page.goto("/account");
      const profile = page.getByRole("region", { name: "Profile" });
      await profile.getByLabel("New email address").fill(next);
      await profile.getByRole("button", { name: "Change email" }).click();
      await toastText(page, "Check both inboxes").waitFor();

      const toNew = profile.getByRole("form", { name: `Code sent to ${next}` });
      const toCurrent = profile.getByRole("form", { name: `Code sent to ${email}` });
      // A field for each address's code, named by it; the new address's has the focus.
      const newField = toNew.getByLabel(`6-digit code sent to ${next}`);
      const currentField = toCurrent.getByLabel(`6-digit code sent to ${email}`);
      await expect.poll(() => focused(newField)).toBe(true);
      await toCurrent.waitFor();
      expect(await axeViolations(page)).toEqual([]);

      const newCode = codeIn(await emailTo(smtp, next, "Confirm your new Revwise email address"));
      const currentCode = codeIn(
        await emailTo(smtp, email, "Confirm the change of your Revwise email address"),
      );
      ctx.allowConsoleError(/status of 403/);
      await sendWrongEmailCode(toNew, newCode, "Confirm", `6-digit code sent to ${next}`);
      await newField.fill(newCode);
      await page.keyboard.press("Enter");
      // One address confirmed: it says so, and the other address's field has the focus.
      await profile.getByText(`${next} confirmed.`).waitFor();
      expect(await toNew.count()).toBe(0);
      await expect.poll(() => focused(currentField)).toBe(true);
      expect(await axeViolations(page)).toEqual([]);

      await currentField.fill(currentCode);
      await page.keyboard.press("Enter");
      await toastText(page, "Email address updated").waitFor();
      await profile.getByText(`Current email: ${next}`).waitFor();
      await expect.poll(() => focused(profile.getByLabel("New email address"))).toBe(true);
      await page.reload();
      await page
        .getByRole("region", { name: "Profile" })
        .getByText(`Current email: ${next}`)
        .waitFor();
    });
  },
  withTestSmtp((s) => (smtp = s)),
);
