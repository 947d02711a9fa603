// In a real browser: sign-in by an emailed link; the account page (name, password, the emailed
// code a day-old session needs, sessions); two-step verification set up with a code computed from
// the shown secret, then a password sign-in that asks for the app's code; axe on every state.
import type { Page } from "playwright-core";
import { expect, it } from "vitest";
import { stepAt, totpCode } from "../support/totp.ts";
import { codeIn, emailTo, pageLinkIn, PASSWORD, uniqueEmail } from "../support/auth.ts";
import { axeViolations } from "../support/axe.ts";
import { describeInBrowser } from "../support/browser.ts";
import {
  confirmedAccount,
  expectCodeStepFocused,
  logOut,
  openEmailLink,
  sendWrongAppCode,
  signUpAndConfirm,
} from "../support/browser-accounts.ts";
import { toastText } from "../support/forms.ts";
import { type TestSmtp, withTestSmtp } from "../support/smtp.ts";

let smtp: TestSmtp;

const header = (page: Page) => page.getByRole("banner");

/** The header as a visitor without a session sees it: Request Access, no Logout. */
async function expectSignedOutHeader(page: Page) {
  await header(page).getByRole("link", { name: "Request Access" }).waitFor();
  expect(await header(page).getByRole("button", { name: "Logout" }).isVisible()).toBe(false);
}

/** The same, from the page's first paint (its scripts held back) to its session being read. */
async function expectSignedOutHeaderFromFirstPaint(page: Page, path: string) {
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  const held = /\/assets\/[\w.-]+\.js$/;
  await page.route(held, async (route) => {
    await released;
    await route.continue();
  });
  await page.goto(path, { waitUntil: "domcontentloaded" });
  await expectSignedOutHeader(page);
  release();
  await page
    .locator('[data-island="account-action"][data-hydrated]')
    .waitFor({ state: "attached" });
  await page.waitForLoadState("networkidle");
  await expectSignedOutHeader(page);
  await page.unroute(held);
}

describeInBrowser(
  "account page",
  (ctx) => {
    /** A confirmed account (signed up on /auth, confirmed by its link), signed in on a new page. */
    const signedUp = (label: string) => confirmedAccount(ctx, smtp, label);

    async function signInWithPassword(page: Page, email: string, password: string) {
      await page.goto("/auth");
      const form = page.getByRole("form", { name: "Sign in" });
      await form.getByLabel("Email").fill(email);
      await form.getByLabel("Password").fill(password);
      await form.getByRole("button", { name: "Sign in" }).click();
    }

    it("brings an emailed sign-in link asked for on the way to /account back to /account", async () => {
      const page = await ctx.newPage();
      const email = uniqueEmail("next");
      await signUpAndConfirm(page, smtp, email);
      await logOut(page);
      await page.goto("/account");
      await page
        .getByRole("region", { name: "Sign in to see your account" })
        .getByRole("link", { name: "Sign in" })
        .click();
      await page.waitForURL((url) => url.pathname === "/auth");
      const form = page.getByRole("form", { name: "Sign in" });
      await form.getByLabel("Email").fill(email);
      await form.getByRole("button", { name: "Email me a sign-in link" }).click();
      await toastText(page, "Check your email").waitFor();
      const mail = await emailTo(smtp, email, "Your Revwise sign-in link");
      expect(new URL(pageLinkIn(mail)).searchParams.get("redirect_to")).toBe(
        `${ctx.baseUrl}/auth?next=%2Faccount`,
      );
      await openEmailLink(page, mail, "Sign in");
      await page.waitForURL((url) => url.pathname === "/account");
      await page.getByRole("region", { name: "Profile" }).waitFor();
    });

    it("signs in with an emailed link, shows who is signed in on /auth, and links the account page", async () => {
      const page = await ctx.newPage();
      const email = uniqueEmail("magic");
      await page.goto("/auth");
      expect(await axeViolations(page)).toEqual([]);
      const form = page.getByRole("form", { name: "Sign in" });
      await form.getByLabel("Email").fill(email);
      await form.getByRole("button", { name: "Email me a sign-in link" }).click();
      await toastText(page, "Check your email").waitFor();

      const mail = await emailTo(smtp, email, "Your Revwise sign-in link");
      expect(new URL(pageLinkIn(mail)).searchParams.get("redirect_to")).toBe(`${ctx.baseUrl}/auth`);
      // A new address's sign-in link confirms it (GoTrue's signup link), and its page says so.
      await openEmailLink(page, mail, "Confirm my email");
      await page.getByRole("heading", { name: "You're signed in" }).waitFor();
      await page.getByText(email).waitFor();
      expect(new URL(page.url()).hash).toBe("");
      await header(page).getByRole("button", { name: "Logout" }).waitFor();
      expect(await axeViolations(page)).toEqual([]);

      await page.getByRole("link", { name: "Go to your account" }).click();
      await page.waitForURL((url) => url.pathname === "/account");
      await page.getByRole("heading", { level: 1, name: "Your account" }).waitFor();
      await page.getByRole("region", { name: "Profile" }).getByText(email).first().waitFor();
      // The header links the account page for someone signed in.
      await header(page).getByRole("link", { name: "Your account" }).waitFor();
    });

    it("asks someone without a session on /account to sign in, and comes back there", async () => {
      const page = await ctx.newPage();
      await page.goto("/account");
      const prompt = page.getByRole("region", { name: "Sign in to see your account" });
      await prompt.getByRole("link", { name: "Sign in" }).click();
      await page.waitForURL((url) => url.pathname === "/auth");
      expect(new URL(page.url()).searchParams.get("next")).toBe("/account");
      await page.getByRole("form", { name: "Sign in" }).waitFor();
      expect(await header(page).getByRole("link", { name: "Your account" }).isVisible()).toBe(
        false,
      );
    });

    it("changes the name and the password, asking for the emailed code when the session is old", async () => {
      const { page, email } = await signedUp("profile");
      await page.goto("/account");
      const profile = page.getByRole("region", { name: "Profile" });
      await profile.getByLabel("Name", { exact: true }).fill("Ada Lovelace");
      // By keyboard: the button keeps the focus while it saves, and after.
      const save = profile.getByRole("button", { name: "Save name" });
      await save.focus();
      await page.keyboard.press("Enter");
      await toastText(page, "Name saved").waitFor();
      expect(await save.evaluate((b) => b === document.activeElement)).toBe(true);
      await page.reload();
      await expect
        .poll(() =>
          page
            .getByRole("region", { name: "Profile" })
            .getByLabel("Name", { exact: true })
            .inputValue(),
        )
        .toBe("Ada Lovelace");
      expect(await axeViolations(page)).toEqual([]);

      // A fresh session changes its password at once.
      const password = page.getByRole("region", { name: "Password" });
      await password.getByLabel("New password", { exact: true }).fill("Second-Password-77");
      await password.getByLabel("Confirm new password").fill("Second-Password-77");
      await password.getByRole("button", { name: "Change password" }).click();
      await toastText(page, "Password changed").waitFor();

      // A session signed in two days ago must confirm with the code emailed to the account.
      await ctx.db.query(
        "UPDATE auth.sessions SET created_at = now() - interval '2 days' WHERE user_id = (SELECT id FROM auth.users WHERE email = $1)",
        [email],
      );
      await password.getByLabel("New password", { exact: true }).fill("Third-Password-99");
      await password.getByLabel("Confirm new password").fill("Third-Password-99");
      ctx.allowConsoleError(/status of 400/);
      await password.getByRole("button", { name: "Change password" }).click();
      const confirm = page.getByRole("form", { name: "Confirm your password change" });
      await confirm.waitFor();
      expect(await axeViolations(page)).toEqual([]);
      const code = codeIn(await emailTo(smtp, email, "Your Revwise confirmation code"));
      await confirm.getByLabel("Code from your email").fill(code);
      await confirm.getByRole("button", { name: "Save new password" }).click();
      // Saved: the code step gives way to the password form again (the first change's toast may
      // still be showing, so the toast alone does not say this one is done).
      await confirm.waitFor({ state: "detached" });
      await password.getByRole("button", { name: "Change password" }).waitFor();

      await logOut(page);
      await signInWithPassword(page, email, "Third-Password-99");
      await page.waitForURL((url) => url.pathname === "/");
      await header(page).getByRole("button", { name: "Logout" }).waitFor();
    });

    it("keeps the emailed-code step of a password change usable: focus, a wrong code, asking again", async () => {
      const { page, email } = await signedUp("reauth-step");
      await page.goto("/account");
      await ctx.db.query(
        "UPDATE auth.sessions SET created_at = now() - interval '2 days' WHERE user_id = (SELECT id FROM auth.users WHERE email = $1)",
        [email],
      );
      const password = page.getByRole("region", { name: "Password" });
      const changePassword = password.getByRole("button", { name: "Change password" });
      const askForChange = async (value: string) => {
        await password.getByLabel("New password", { exact: true }).fill(value);
        await password.getByLabel("Confirm new password").fill(value);
        await changePassword.click();
      };
      ctx.allowConsoleError(/status of (400|422|429)/);
      await askForChange("Fourth-Password-11");
      const confirm = page.getByRole("form", { name: "Confirm your password change" });
      const codeField = confirm.getByLabel("Code from your email");
      await codeField.waitFor();
      const code = codeIn(await emailTo(smtp, email, "Your Revwise confirmation code"));

      // A wrong code is said in people's words, under the field, which keeps the focus.
      await codeField.fill(code === "000000" ? "111111" : "000000");
      await confirm.getByRole("button", { name: "Save new password" }).click();
      await confirm
        .getByText(
          "That code is wrong or has expired. Check the latest email or ask for a new code.",
          { exact: true },
        )
        .waitFor();
      expect(await confirm.getByText("Nonce has expired or is invalid").count()).toBe(0);

      // Cancel gives the focus back to the button that opened the step.
      await confirm.getByRole("button", { name: "Cancel" }).click();
      await confirm.waitFor({ state: "detached" });
      await expect
        .poll(() => changePassword.evaluate((b) => b === document.activeElement))
        .toBe(true);

      // Asked again within the minute: no new code goes, and the step shows anyway, saying the
      // code already sent still works and when a new one can be asked for.
      await askForChange("Fourth-Password-11");
      await codeField.waitFor();
      const note = password.getByRole("status");
      await expect
        .poll(() => note.textContent())
        .toMatch(/code we emailed .* still works.*ask for a new one in \d+ seconds?/i);
      expect(await page.getByText("For security purposes").count()).toBe(0);
      expect(await axeViolations(page)).toEqual([]);

      // The code already sent saves the password; the focus goes to the form's first field.
      await codeField.fill(code);
      await confirm.getByRole("button", { name: "Save new password" }).click();
      await confirm.waitFor({ state: "detached" });
      const firstField = password.getByLabel("Current password");
      await expect.poll(() => firstField.evaluate((f) => f === document.activeElement)).toBe(true);
      await toastText(page, "Password changed").waitFor();
      expect(await axeViolations(page)).toEqual([]);
    });

    it("sets up an authenticator app, then a password sign-in asks for its code before the session counts", async () => {
      const { page, email } = await signedUp("mfa");
      await page.goto("/account");
      const mfa = page.getByRole("region", { name: "Two-step verification" });
      await mfa.getByRole("button", { name: "Set up an authenticator app" }).click();
      const qr = mfa.getByRole("img", { name: /QR code/ });
      await qr.waitFor();
      // The QR code really draws (an image that failed shows only its alt text).
      await qr.evaluate((img: HTMLImageElement) => img.decode());
      expect(await qr.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBeGreaterThan(0);
      const secret = (await mfa.getByTestId("totp-secret").textContent())!.trim();
      expect(secret).toMatch(/^[A-Z2-7]{32}$/);
      expect(await axeViolations(page)).toEqual([]);
      const turnOn = mfa.getByRole("form", { name: "Turn on two-step verification" });
      // A wrong code first: the field says so.
      ctx.allowConsoleError(/status of 422/);
      await sendWrongAppCode(turnOn, "Verify and turn on");
      const firstStep = stepAt(Date.now());
      await turnOn.getByLabel("6-digit code from your app").fill(totpCode(secret, firstStep));
      await turnOn.getByRole("button", { name: "Verify and turn on" }).click();
      await toastText(page, "Two-step verification is on").waitFor();
      // Its recovery codes are shown once (tests/e2e/recovery-codes.test.ts), then the app is listed.
      await mfa.getByRole("button", { name: "I've saved them" }).click();
      await mfa.getByRole("button", { name: "Remove authenticator app" }).waitFor();
      expect(await axeViolations(page)).toEqual([]);

      // Sessions: this one, flagged.
      const sessions = page.getByRole("region", { name: "Where you're signed in" });
      await sessions.getByText("This device", { exact: true }).waitFor();

      await logOut(page);

      await signInWithPassword(page, email, PASSWORD);
      const heading = page.getByRole("heading", { name: "Enter your verification code" });
      await heading.waitFor();
      expect(await axeViolations(page)).toEqual([]);
      // A session that still owes its code is not signed in, for the header of every page: the
      // code step, the same page reloaded, and the home page, from its first paint on.
      await expectSignedOutHeader(page);
      await page.reload();
      await heading.waitFor();
      await expectSignedOutHeader(page);
      await expectSignedOutHeaderFromFirstPaint(page, "/");

      // "Use a different account" gives the keyboard the sign-in form's first field.
      await page.goto("/auth");
      await page.getByRole("button", { name: "Use a different account" }).focus();
      await page.keyboard.press("Enter");
      const signIn = page.getByRole("form", { name: "Sign in" });
      await expect
        .poll(() => signIn.getByLabel("Email").evaluate((f) => f === document.activeElement))
        .toBe(true);
      await signInWithPassword(page, email, PASSWORD);
      await heading.waitFor();
      // The account page does not count this session yet: it sends it back to the code step,
      // which returns to it.
      await page.goto("/account");
      await page.waitForURL((url) => url.pathname === "/auth");
      expect(new URL(page.url()).searchParams.get("next")).toBe("/account");
      // By keyboard alone: the step's heading has the focus, the code field comes next, Enter sends.
      await expectCodeStepFocused(page);
      await page.keyboard.press("Tab");
      const field = page
        .getByRole("form", { name: "Verification code" })
        .getByLabel("6-digit code from your app");
      expect(await field.evaluate((f) => f === document.activeElement)).toBe(true);
      // A wrong code: the field says so and has the focus again.
      const codeForm = page.getByRole("form", { name: "Verification code" });
      await sendWrongAppCode(codeForm, "Verify and sign in");
      // A code works once: the next step's code (the server accepts one step either side).
      await field.fill(totpCode(secret, firstStep + 1));
      await page.keyboard.press("Enter");
      await page.waitForURL((url) => url.pathname === "/account");
      await toastText(page, "Signed in").waitFor();
      await header(page).getByRole("button", { name: "Logout" }).waitFor();

      // The raised (aal2) session removes the app after a confirmation.
      await page.goto("/account");
      await mfa.getByRole("button", { name: "Remove authenticator app" }).click();
      await mfa.getByRole("button", { name: "Yes, remove it" }).click();
      await toastText(page, "Authenticator app removed").waitFor();
      await mfa.getByRole("button", { name: "Set up an authenticator app" }).waitFor();
    });

    it("changes the email once both emailed links are opened", async () => {
      const { page, email } = await signedUp("moving");
      const next = uniqueEmail("moved");
      await page.goto("/account");
      const profile = page.getByRole("region", { name: "Profile" });
      await profile.getByLabel("New email address").fill(next);
      await profile.getByRole("button", { name: "Change email" }).click();
      await toastText(page, "Check both inboxes").waitFor();
      const toNew = await emailTo(smtp, next, "Confirm your new Revwise email address");
      const toCurrent = await emailTo(
        smtp,
        email,
        "Confirm the change of your Revwise email address",
      );
      expect(new URL(pageLinkIn(toNew)).searchParams.get("redirect_to")).toBe(
        `${ctx.baseUrl}/account`,
      );
      await openEmailLink(page, toNew, "Confirm the change");
      // The first link says, on its page, that the other address's link is owed.
      const owed = page.getByRole("status").filter({ hasText: "Now open the link we sent" });
      await owed.waitFor();
      await expect.poll(() => owed.evaluate((p) => p === document.activeElement)).toBe(true);
      await openEmailLink(page, toCurrent, "Confirm the change");
      await toastText(page, "Email address updated").waitFor();
      await page.waitForURL((url) => url.pathname === "/account" && url.hash === "");
      await profile.getByText(`Current email: ${next}`).waitFor();
    });

    it("drops the open account page for the sign-in prompt when Logout is pressed in another tab", async () => {
      const { page } = await signedUp("tabs");
      await page.goto("/account");
      await page.getByRole("region", { name: "Profile" }).waitFor();
      const other = await page.context().newPage();
      await other.goto("/account");
      await other.getByRole("main").getByRole("button", { name: "Logout" }).click();
      await other.waitForURL((url) => url.pathname === "/");
      const prompt = page.getByRole("heading", { name: "Sign in to see your account" });
      await prompt.waitFor();
      expect(await page.getByRole("region", { name: "Profile" }).count()).toBe(0);
      await expect.poll(() => prompt.evaluate((h) => h === document.activeElement)).toBe(true);
    });

    it("signs out the other devices", async () => {
      const { page, email } = await signedUp("devices");
      const other = await ctx.newPage();
      await signInWithPassword(other, email, PASSWORD);
      await other.waitForURL((url) => url.pathname === "/");
      await page.goto("/account");
      const sessions = page.getByRole("region", { name: "Where you're signed in" });
      await sessions.getByText(/Signed in on \d+ other device/).waitFor();
      // By keyboard: the button keeps the focus while it works, and once there is nothing left to
      // sign out.
      const signOutOthers = sessions.getByRole("button", { name: "Sign out other devices" });
      await signOutOthers.focus();
      await page.keyboard.press("Enter");
      await toastText(page, "Signed out of other devices").waitFor();
      await sessions.getByText("You're signed in on this device only.").waitFor();
      expect(await sessions.getByRole("listitem").count()).toBe(1);
      expect(await signOutOthers.evaluate((b) => b === document.activeElement)).toBe(true);
      expect(await signOutOthers.getAttribute("aria-disabled")).toBe("true");
    });

    it("keeps a signed-in visitor on the site when ?next= names another host through a tab or a newline", async () => {
      const { page } = await signedUp("next-host");
      // Browsers drop tabs and newlines from a URL: `/<tab>/evil.example` is `//evil.example`.
      let leave!: (url: string) => void;
      const leftTheSite = new Promise<string>((resolve) => (leave = resolve));
      await page.context().route(
        (url) => url.hostname === "evil.example",
        (route) => {
          leave(route.request().url());
          return route.fulfill({ contentType: "text/plain", body: "phished" });
        },
      );
      for (const stripped of ["%09", "%0A", "%0D"]) {
        await page.goto(`/auth?next=%2F${stripped}%2Fevil.example%2Fphish`);
        const stayed = page
          .getByRole("heading", { name: "You're signed in" })
          .waitFor()
          .then(() => "stayed");
        expect(await Promise.race([stayed, leftTheSite])).toBe("stayed");
        expect(new URL(page.url()).origin).toBe(ctx.baseUrl);
      }
    });

    /** Signs in on another device (a new browser context), which signs out the others. */
    async function signOutOthersFromAnotherDevice(email: string) {
      const a = await ctx.newPage();
      await signInWithPassword(a, email, PASSWORD);
      await a.waitForURL((url) => url.pathname === "/");
      await a.goto("/account");
      await a
        .getByRole("region", { name: "Where you're signed in" })
        .getByRole("button", { name: "Sign out other devices" })
        .click();
      await toastText(a, "Signed out of other devices").waitFor();
    }

    /** The account dropped for the sign-in prompt, which has the focus; nothing personal left. */
    async function expectAccountDropped(page: Page, email: string) {
      const prompt = page.getByRole("heading", { name: "Sign in to see your account" });
      await prompt.waitFor();
      await expect.poll(() => prompt.evaluate((h) => h === document.activeElement)).toBe(true);
      await expectSignedOutHeader(page);
      expect(await page.getByRole("region", { name: "Where you're signed in" }).count()).toBe(0);
      expect(await page.locator("main").innerText()).not.toContain(email);
    }

    it("drops the account for the focused sign-in prompt when a request finds the session signed out on another device", async () => {
      ctx.allowConsoleError(/status of 403/);
      const { page, email } = await signedUp("remote");
      await page.goto("/account");
      await page
        .getByRole("region", { name: "Where you're signed in" })
        .getByText("You're signed in on this device only.")
        .waitFor();
      await signOutOthersFromAnotherDevice(email);
      // Without reloading: the next request of this page is refused (403 session_not_found).
      const profile = page.getByRole("region", { name: "Profile" });
      await profile.getByRole("textbox", { name: "Name" }).fill("Bea");
      await profile.getByRole("button", { name: "Save name" }).click();
      await expectAccountDropped(page, email);
      await toastText(page, "You've been signed out. Sign in again to continue.").waitFor();
    });

    it("ends the session on every open page when its refresh is refused after a sign-out on another device", async () => {
      ctx.allowConsoleError(/status of 40[03]/);
      const { page, email } = await signedUp("refresh");
      // The page's clock is moved on to the token's last minutes, when supabase-js refreshes it.
      await page.clock.install();
      await page.goto("/account");
      await page.getByRole("region", { name: "Profile" }).waitFor();
      const signIn = await page.context().newPage();
      await signIn.goto("/auth");
      await signIn.getByRole("heading", { name: "You're signed in" }).waitFor();
      await signOutOthersFromAnotherDevice(email);
      const refreshRefused = page
        .context()
        .waitForEvent(
          "response",
          (r) => r.url().includes("/auth/v1/token?grant_type=refresh_token") && r.status() === 400,
        );
      await page.clock.fastForward("58:30");
      await refreshRefused;
      await expectAccountDropped(page, email);
      // The sign-in page drops who was signed in for the form, its first field focused.
      const emailField = signIn.getByRole("form", { name: "Sign in" }).getByLabel("Email");
      await emailField.waitFor();
      await expect.poll(() => emailField.evaluate((e) => e === document.activeElement)).toBe(true);
      await expectSignedOutHeader(signIn);
      expect(await signIn.locator("main").innerText()).not.toContain(email);
    });
  },
  withTestSmtp((s) => (smtp = s), {
    GOTRUE_SECURITY_UPDATE_PASSWORD_REQUIRE_REAUTHENTICATION: "true",
  }),
);
