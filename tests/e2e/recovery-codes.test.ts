// In a real browser: two-step verification for someone who may lose their phone (decision 0038).
// Setting up an authenticator app (a code computed from the shown secret by the tests' own TOTP)
// shows ten recovery codes once; a password sign-in then passes its second step with one of them
// and reaches /account at aal2; the same code is refused the second time; new codes (copied or
// downloaded, then never shown again) replace the old; a password reset and the team workspace
// pass their second step with one too; a set-up never finished is listed as such and removed. The focus goes to each new
// step's heading; axe on each step. Where the set-up is not what a test is about, the account, its
// app and its codes are made through the server's API (supabase-js in the test), which is faster.
import { createClient } from "@supabase/supabase-js";
import fs from "node:fs/promises";
import type { Locator, Page } from "playwright-core";
import { expect, it } from "vitest";
import { mintApiKey } from "../../server/security/keys.ts";
import { TEST_JWT_SECRET } from "../support/app.ts";
import { PASSWORD, uniqueEmail } from "../support/auth.ts";
import { axeViolations } from "../support/axe.ts";
import { describeInBrowser } from "../support/browser.ts";
import {
  confirmedAccount,
  logOut,
  openRecoveryLink,
  sessionClaims,
} from "../support/browser-accounts.ts";
import { toastText } from "../support/forms.ts";
import { type TestSmtp, withTestSmtp } from "../support/smtp.ts";
import { stepAt, totpCode } from "../support/totp.ts";

let smtp: TestSmtp;

const WRONG =
  "That recovery code didn't work. Check it against your saved codes: each one works once, and only the newest set works.";

const jwtSecret = new TextEncoder().encode(TEST_JWT_SECRET);

const focused = (target: Locator) => target.evaluate((e) => e === document.activeElement);

describeInBrowser(
  "recovery codes",
  (ctx) => {
    const twoStep = (page: Page) => page.getByRole("region", { name: "Two-step verification" });

    /** The shown codes: their heading has the focus; ten of them, in the shape the server makes. */
    async function shownCodes(page: Page): Promise<string[]> {
      const heading = page.getByRole("heading", { name: "Save your recovery codes" });
      await heading.waitFor();
      await expect.poll(() => focused(heading)).toBe(true);
      const list = page.getByRole("list", { name: "Your recovery codes" });
      const codes = (await list.getByRole("listitem").allTextContents()).map((c) => c.trim());
      expect(codes).toHaveLength(10);
      for (const code of codes) expect(code).toMatch(/^[a-z2-9]{5}-[a-z2-9]{5}$/);
      return codes;
    }

    /**
     * A confirmed account that set up its authenticator app on /account: the codes shown once,
     * saved; the page stays on /account.
     */
    async function withAppAndCodes(label: string) {
      const { page, email } = await confirmedAccount(ctx, smtp, label);
      await page.goto("/account");
      const mfa = twoStep(page);
      await mfa.getByRole("button", { name: "Set up an authenticator app" }).click();
      const secret = (await mfa.getByTestId("totp-secret").textContent())!.trim();
      const turnOn = mfa.getByRole("form", { name: "Turn on two-step verification" });
      await turnOn
        .getByLabel("6-digit code from your app")
        .fill(totpCode(secret, stepAt(Date.now())));
      await turnOn.getByRole("button", { name: "Verify and turn on" }).click();
      await toastText(page, "Two-step verification is on").waitFor();
      const codes = await shownCodes(page);
      return { page, email, secret, codes };
    }

    /** Signs in with the password on the way to /account: the app's code step shows. */
    async function signInOwingCode(page: Page, email: string) {
      await page.goto("/auth?next=%2Faccount");
      const form = page.getByRole("form", { name: "Sign in" });
      await form.getByLabel("Email").fill(email);
      await form.getByLabel("Password").fill(PASSWORD);
      await form.getByRole("button", { name: "Sign in" }).click();
      await page.getByRole("heading", { name: "Enter your verification code" }).waitFor();
    }

    /** From the app's code step to the recovery code's: its heading has the focus. */
    async function useRecoveryCode(scope: Page | Locator): Promise<Locator> {
      await scope.getByRole("button", { name: "Use a recovery code" }).click();
      const heading = scope.getByRole("heading", { name: "Enter a recovery code" });
      await heading.waitFor();
      await expect.poll(() => focused(heading)).toBe(true);
      return scope.getByRole("form", { name: "Recovery code" });
    }

    /** A refused recovery code: the words under the field, which is invalid and focused again. */
    async function expectRefused(form: Locator) {
      const message = form.getByText(WRONG, { exact: true });
      await message.waitFor();
      const field = form.getByLabel("Recovery code");
      expect(await field.getAttribute("aria-invalid")).toBe("true");
      expect((await field.getAttribute("aria-describedby"))?.split(" ")).toContain(
        await message.getAttribute("id"),
      );
      await expect.poll(() => focused(field)).toBe(true);
    }

    /** A request to a recovery-code route with a session's access token: its status and body. */
    async function recoveryApi(token: string, path: string, body?: object) {
      const res = await fetch(`${ctx.baseUrl}/auth/v1/recovery_codes${path}`, {
        method: body ? "POST" : "GET",
        headers: {
          apikey: mintApiKey(jwtSecret, "anon"),
          authorization: `Bearer ${token}`,
          "content-type": "application/json",
        },
        ...(body && { body: JSON.stringify(body) }),
      });
      return { status: res.status, body: (await res.json()) as Record<string, unknown> };
    }

    /** A new supabase-js client in the test, signed in with the password (aal1 once an app is on). */
    async function apiSignIn(email: string) {
      const supabase = createClient(ctx.baseUrl, mintApiKey(jwtSecret, "anon"), {
        auth: { persistSession: false, autoRefreshToken: false },
      });
      const { data, error } = await supabase.auth.signInWithPassword({ email, password: PASSWORD });
      expect(error).toBeNull();
      return { supabase, token: data.session!.access_token };
    }

    /**
     * A confirmed account with an authenticator app and recovery codes, made through the API: the
     * app's secret (its current step's code is spent) and the codes.
     */
    async function accountWithApp(label: string, teamRole?: "member") {
      const email = uniqueEmail(label);
      const admin = createClient(ctx.baseUrl, mintApiKey(jwtSecret, "service_role"), {
        auth: { persistSession: false, autoRefreshToken: false },
      }).auth.admin;
      const created = await admin.createUser({
        email,
        password: PASSWORD,
        email_confirm: true,
        ...(teamRole && { app_metadata: { team_role: teamRole } }),
      });
      expect(created.error).toBeNull();
      const { supabase } = await apiSignIn(email);
      const { data: enrolled } = await supabase.auth.mfa.enroll({ factorType: "totp" });
      const secret = enrolled!.totp!.secret;
      const verified = await supabase.auth.mfa.challengeAndVerify({
        factorId: enrolled!.id,
        code: totpCode(secret, stepAt(Date.now())),
      });
      expect(verified.error).toBeNull();
      const made = await recoveryApi(verified.data!.access_token, "", {});
      expect(made.status).toBe(200);
      return { email, secret, codes: made.body.codes as string[] };
    }

    it("walks a lost phone: set up, ten codes shown once, then a password sign-in passes its second step with one, to /account at aal2", async () => {
      ctx.allowConsoleError(/status of 422/);
      // (axe on the codes shown: the test of new codes.)
      const { page, email, codes } = await withAppAndCodes("recovery-walk");
      await page.getByRole("button", { name: "I've saved them" }).click();
      const mfa = twoStep(page);
      await mfa.getByText("10 codes of 10 left, made").waitFor();

      // A password sign-in owes its second step: a recovery code in place of the app's.
      await logOut(page);
      await signInOwingCode(page, email);
      const form = await useRecoveryCode(page);
      expect(await axeViolations(page)).toEqual([]);
      // And back, and there again: each view's heading takes the focus.
      await page.getByRole("button", { name: "Use your authenticator app instead" }).click();
      const appHeading = page.getByRole("heading", { name: "Enter your verification code" });
      await expect.poll(() => focused(appHeading)).toBe(true);
      await useRecoveryCode(page);
      // A code that is none of them: said under the field.
      await form.getByLabel("Recovery code").fill("aaaaa-aaaaa");
      await form.getByRole("button", { name: "Verify and sign in" }).click();
      await expectRefused(form);
      // Typed loosely (capitals, a space for the dash), it works.
      await form.getByLabel("Recovery code").fill(codes[0]!.toUpperCase().replace("-", " "));
      await page.keyboard.press("Enter");
      await page.waitForURL((url) => url.pathname === "/account");
      await toastText(page, "Signed in with a recovery code").waitFor();
      await page
        .locator("[data-toaster]")
        .getByText(/^You have 9 recovery codes left\./)
        .waitFor();
      const claims = await sessionClaims(page);
      expect(claims?.aal).toBe("aal2");
      expect(claims?.amr.map((a) => a.method)).toContain("recovery");
      await mfa.getByText("9 codes of 10 left, made").waitFor();
    });

    it("refuses a recovery code the second time", async () => {
      ctx.allowConsoleError(/status of 422/);
      const { email, codes } = await accountWithApp("recovery-twice");
      const page = await ctx.newPage();
      await signInOwingCode(page, email);
      const form = await useRecoveryCode(page);
      await form.getByLabel("Recovery code").fill(codes[0]!);
      await form.getByRole("button", { name: "Verify and sign in" }).click();
      await page.waitForURL((url) => url.pathname === "/account");
      expect((await sessionClaims(page))?.aal).toBe("aal2");

      // Another device signs in with the password and types the same code.
      const other = await ctx.newPage();
      await signInOwingCode(other, email);
      const again = await useRecoveryCode(other);
      await again.getByLabel("Recovery code").fill(codes[0]!);
      await again.getByRole("button", { name: "Verify and sign in" }).click();
      await expectRefused(again);
      expect((await sessionClaims(other))?.aal).toBe("aal1");
    });

    it("shows new codes once, to copy or download, and they replace the old", async () => {
      const { email, secret, codes } = await accountWithApp("recovery-new");
      const page = await ctx.newPage();
      await signInOwingCode(page, email);
      const appCode = page.getByRole("form", { name: "Verification code" });
      // The step after the one the API spent.
      await appCode
        .getByLabel("6-digit code from your app")
        .fill(totpCode(secret, stepAt(Date.now()) + 1));
      await appCode.getByRole("button", { name: "Verify and sign in" }).click();
      await page.waitForURL((url) => url.pathname === "/account");
      const mfa = twoStep(page);
      await mfa
        .getByRole("listitem")
        .filter({ hasText: "Authenticator app" })
        .getByText("On", { exact: true })
        .waitFor();
      await mfa.getByText("10 codes of 10 left, made").waitFor();

      // New codes, after a confirmation that has the focus.
      await mfa.getByRole("button", { name: "Make new recovery codes" }).click();
      const question = mfa.getByText(/^Make new recovery codes\? The codes you have now stop/);
      await expect.poll(() => focused(question)).toBe(true);
      expect(await axeViolations(page)).toEqual([]);
      await mfa.getByRole("button", { name: "Yes, make new codes" }).click();
      const renewed = await shownCodes(page);
      expect(renewed.filter((c) => codes.includes(c))).toEqual([]);
      expect(await axeViolations(page)).toEqual([]);
      // Downloaded as a text file holding every code.
      const [download] = await Promise.all([
        page.waitForEvent("download"),
        page.getByRole("link", { name: "Download codes" }).click(),
      ]);
      expect(download.suggestedFilename()).toBe("revwise-recovery-codes.txt");
      const file = await fs.readFile((await download.path())!, "utf8");
      for (const code of renewed) expect(file).toContain(code);
      // Copied to the clipboard, one a line.
      await page.context().grantPermissions(["clipboard-read", "clipboard-write"]);
      await page.getByRole("button", { name: "Copy codes" }).click();
      await toastText(page, "Codes copied").waitFor();
      expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(renewed.join("\n"));

      await mfa.getByRole("button", { name: "I've saved them" }).click();
      await mfa.getByText("10 codes of 10 left, made").waitFor();
      await expect
        .poll(() => focused(mfa.getByRole("button", { name: "Make new recovery codes" })))
        .toBe(true);
      // Shown once: not on the page once saved, nor after a reload.
      expect(await page.locator("main").innerText()).not.toContain(renewed[0]);
      await page.reload();
      await mfa.getByText("10 codes of 10 left, made").waitFor();
      expect(await page.locator("main").innerText()).not.toContain(renewed[0]);

      // The old codes, never used, no longer work; the new ones do.
      const { token } = await apiSignIn(email);
      expect(await recoveryApi(token, "/verify", { code: codes[1] })).toMatchObject({
        status: 422,
        body: expect.objectContaining({ code: "mfa_verification_failed" }),
      });
      expect((await recoveryApi(token, "/verify", { code: renewed[1] })).status).toBe(200);
    });

    it("passes a password reset's second step with a recovery code", async () => {
      const { email, codes } = await accountWithApp("recovery-reset");
      const page = await ctx.newPage();
      await openRecoveryLink(page, smtp, email);
      await page.getByRole("form", { name: "Verification code" }).waitFor();
      const form = await useRecoveryCode(page);
      expect(await axeViolations(page)).toEqual([]);
      await form.getByLabel("Recovery code").fill(codes[4]!);
      await form.getByRole("button", { name: "Continue" }).click();
      const reset = page.getByRole("form", { name: "Choose a new password" });
      const newPassword = reset.getByLabel("New password", { exact: true });
      await expect.poll(() => focused(newPassword)).toBe(true);
      await newPassword.fill("Recovered-Password-55");
      await reset.getByLabel("Confirm new password").fill("Recovered-Password-55");
      await reset.getByRole("button", { name: "Save new password" }).click();
      await page.waitForURL((url) => url.pathname === "/");
      await toastText(page, "Password updated").waitFor();
    });

    it("opens the team workspace with a recovery code in place of the app's", async () => {
      const { email, codes } = await accountWithApp("recovery-team", "member");
      const page = await ctx.newPage();
      await signInOwingCode(page, email);
      // The workspace asks an aal1 session for its second step, a recovery code offered too.
      await page.goto("/team");
      await page.getByRole("region", { name: "Enter your verification code" }).waitFor();
      const form = await useRecoveryCode(page);
      expect(await axeViolations(page)).toEqual([]);
      await form.getByLabel("Recovery code").fill(codes[2]!);
      await form.getByRole("button", { name: "Verify and open the workspace" }).click();
      await page.getByRole("tablist", { name: "Workspace sections" }).waitFor();
      expect((await sessionClaims(page))?.aal).toBe("aal2");
    });

    it("lists a set-up never finished as such, and removes it", async () => {
      const { page, email } = await confirmedAccount(ctx, smtp, "unfinished");
      await page.goto("/account");
      const mfa = twoStep(page);
      // Started, then the page left before the first code.
      await mfa.getByRole("button", { name: "Set up an authenticator app" }).click();
      await mfa.getByTestId("totp-secret").waitFor();
      await page.reload();
      const item = mfa.getByRole("listitem").filter({ hasText: "Authenticator app" });
      await item.getByText("Not finished").waitFor();
      await item.getByText(/never confirmed with a code/).waitFor();
      // Nothing is on: the set-up is offered again, and no recovery codes.
      await mfa.getByRole("button", { name: "Set up an authenticator app" }).waitFor();
      expect(await mfa.getByText("Recovery codes").count()).toBe(0);
      expect(await axeViolations(page)).toEqual([]);

      await mfa.getByRole("button", { name: "Remove Authenticator app (not finished)" }).click();
      const confirm = mfa.getByRole("group", { name: "Remove Authenticator app" });
      await confirm.getByText("Remove the unfinished set-up of Authenticator app?").waitFor();
      expect(await axeViolations(page)).toEqual([]);
      await confirm.getByRole("button", { name: "Yes, remove it" }).click();
      await toastText(page, "Authenticator app removed").waitFor();
      await expect.poll(() => mfa.getByRole("listitem").count()).toBe(0);
      expect(
        await ctx.db.query(
          "SELECT 1 FROM auth.mfa_factors WHERE user_id = (SELECT id FROM auth.users WHERE email = $1)",
          [email],
        ),
      ).toEqual([]);
    });
  },
  withTestSmtp((s) => (smtp = s)),
);
