// In a real browser with Chromium's virtual authenticators (the DevTools protocol's WebAuthn
// domain): a passkey added on /account signs its person in from /auth's button, and from the email
// field's autofill; it is renamed and removed there; a security key added beside the
// authenticator app is asked for after the password, and it is what a team member steps up with
// on /team. The site runs on http://localhost (a relying party is never an IP address); axe on
// each new part.
import { createClient } from "@supabase/supabase-js";
import type { CDPSession, Page } from "playwright-core";
import { expect, it } from "vitest";
import { mintApiKey } from "../../server/security/keys.ts";
import { TEST_JWT_SECRET } from "../support/app.ts";
import { PASSWORD, uniqueEmail } from "../support/auth.ts";
import { axeViolations } from "../support/axe.ts";
import { describeInBrowser, type BrowserContextInfo } from "../support/browser.ts";
import { logOut, sessionClaims, signInOnAuth } from "../support/browser-accounts.ts";
import { toastText } from "../support/forms.ts";

const jwtSecret = new TextEncoder().encode(TEST_JWT_SECRET);

type Authenticator = { cdp: CDPSession; id: string };

/**
 * A virtual authenticator for the page: a platform one that keeps discoverable passkeys, or a
 * USB security key; it answers every prompt at once, the person verified.
 */
async function virtualAuthenticator(page: Page, kind: "platform" | "usb"): Promise<Authenticator> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send("WebAuthn.enable");
  const { authenticatorId } = await cdp.send("WebAuthn.addVirtualAuthenticator", {
    options: {
      protocol: "ctap2",
      transport: kind === "platform" ? "internal" : "usb",
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
      automaticPresenceSimulation: true,
    },
  });
  return { cdp, id: authenticatorId };
}

const credentialsOf = async ({ cdp, id }: Authenticator) =>
  (await cdp.send("WebAuthn.getCredentials", { authenticatorId: id })).credentials;

/** An account made by the admin API (confirmed), optionally on the team. */
async function account(ctx: BrowserContextInfo, label: string, teamRole?: "member") {
  const admin = createClient(ctx.baseUrl, mintApiKey(jwtSecret, "service_role"), {
    auth: { persistSession: false, autoRefreshToken: false },
  }).auth.admin;
  const email = uniqueEmail(label);
  const { error } = await admin.createUser({
    email,
    password: PASSWORD,
    email_confirm: true,
    ...(teamRole ? { app_metadata: { team_role: teamRole } } : {}),
  });
  expect(error).toBeNull();
  return email;
}

/** Signed in with the password on /auth, at the page it leads to (the home page). */
async function signedIn(page: Page, email: string) {
  await signInOnAuth(page, email);
  await page.getByRole("banner").getByRole("button", { name: "Logout" }).waitFor();
}

describeInBrowser(
  "passkeys and security keys",
  (ctx) => {
    it("adds a passkey on /account that signs in from /auth's button, renamed and removed there", async () => {
      const email = await account(ctx, "passkey");
      const page = await ctx.newPage();
      const authenticator = await virtualAuthenticator(page, "platform");
      await signedIn(page, email);
      await page.goto("/account");
      const section = page.getByRole("region", { name: "Passkeys" });
      await section.getByText("No passkeys yet.").waitFor();
      await section.getByRole("button", { name: "Add a passkey" }).click();
      await toastText(page, "Passkey added").waitFor();
      const list = section.getByRole("list", { name: "Your passkeys" });
      await list.getByText("not used yet").waitFor();
      expect(await credentialsOf(authenticator)).toHaveLength(1);
      expect(await axeViolations(page)).toEqual([]);

      // Renamed in place, with the keyboard.
      await list.getByRole("button", { name: "Rename Passkey" }).click();
      const field = section.getByLabel("Passkey name");
      await expect.poll(() => field.evaluate((e) => e === document.activeElement)).toBe(true);
      await field.fill("Work laptop");
      await page.keyboard.press("Enter");
      await toastText(page, "Passkey renamed").waitFor();
      await list.getByText("Work laptop").waitFor();

      // A browser that offers no passkey autofill (the virtual authenticator would answer it at
      // once): the button, and the email field that would list passkeys where it can.
      await page.addInitScript(() => {
        PublicKeyCredential.isConditionalMediationAvailable = async () => false;
      });
      await logOut(page);
      await page.goto("/auth");
      const emailField = page.getByRole("form", { name: "Sign in" }).getByLabel("Email");
      // The page's code wakes at the first interaction.
      await emailField.click();
      await expect
        .poll(() => emailField.getAttribute("autocomplete"), { timeout: 10_000 })
        .toBe("username webauthn");
      await page.getByRole("button", { name: "Sign in with a passkey" }).click();
      await page.getByRole("banner").getByRole("button", { name: "Logout" }).waitFor();
      const claims = await sessionClaims(page);
      expect(claims?.amr.map((a) => a.method)).toEqual(["passkey"]);
      expect(claims?.aal).toBe("aal1");

      await page.goto("/account");
      await list.getByText(/last used/).waitFor();
      await list.getByRole("button", { name: "Remove Work laptop" }).click();
      await toastText(page, "Passkey removed").waitFor();
      await section.getByText("No passkeys yet.").waitFor();
    });

    it("signs in with a passkey the email field offers (autofill)", async () => {
      const email = await account(ctx, "autofill");
      const first = await ctx.newPage();
      const made = await virtualAuthenticator(first, "platform");
      await signedIn(first, email);
      await first.goto("/account");
      await first.getByRole("button", { name: "Add a passkey" }).click();
      await toastText(first, "Passkey added").waitFor();
      const [credential] = await credentialsOf(made);

      // Another browser, the same passkey synced to it: once the person is in the email field
      // (the page's code wakes then), the sign-in page asks for passkeys in the field's autofill,
      // and the one picked (Chromium's virtual authenticator picks the only one at once) signs in
      // without a press on any button.
      const page = await ctx.newPage();
      const synced = await virtualAuthenticator(page, "platform");
      await synced.cdp.send("WebAuthn.addCredential", {
        authenticatorId: synced.id,
        credential: credential!,
      });
      await page.goto("/auth");
      await page.getByRole("form", { name: "Sign in" }).getByLabel("Email").click();
      await page.getByRole("banner").getByRole("button", { name: "Logout" }).waitFor();
      expect((await sessionClaims(page))?.amr.map((a) => a.method)).toEqual(["passkey"]);
    });

    it("adds a security key as a second step, asks for it after the password, and steps up on /team", async () => {
      const email = await account(ctx, "key", "member");
      const page = await ctx.newPage();
      await virtualAuthenticator(page, "usb");
      await signedIn(page, email);
      await page.goto("/account");
      const twoStep = page.getByRole("region", { name: "Two-step verification" });
      await twoStep.getByLabel("Name for the key").fill("YubiKey");
      await twoStep.getByRole("button", { name: "Add a security key" }).click();
      await toastText(page, "Security key added").waitFor();
      // The first second step: the recovery codes, shown once.
      await page.getByRole("button", { name: "I've saved them" }).click();
      await twoStep.getByText("YubiKey").waitFor();
      expect((await sessionClaims(page))?.aal).toBe("aal2");
      expect(await axeViolations(page)).toEqual([]);

      // A password sign-in owes the key: the step asks for it, and opens the page once touched.
      await logOut(page);
      await signInOnAuth(page, email);
      const step = page.getByRole("heading", { name: "Use your security key" });
      await step.waitFor();
      await expect.poll(() => step.evaluate((e) => e === document.activeElement)).toBe(true);
      expect(await axeViolations(page)).toEqual([]);
      await page.getByRole("button", { name: "Use security key" }).click();
      await page.getByRole("banner").getByRole("button", { name: "Logout" }).waitFor();
      expect((await sessionClaims(page))?.amr[0]?.method).toBe("mfa/webauthn");

      // Signed in again with the password alone (aal1), the member opens /team: the workspace
      // asks for the key, and opens once it answers.
      await logOut(page);
      await signInOnAuth(page, email);
      await step.waitFor();
      await page.goto("/team");
      const gate = page.getByRole("region", { name: "Use your security key" });
      await gate.waitFor();
      expect(await axeViolations(page)).toEqual([]);
      await gate.getByRole("button", { name: "Use security key" }).click();
      await page.getByRole("tablist", { name: "Workspace sections" }).waitFor();
      expect((await sessionClaims(page))?.aal).toBe("aal2");

      // A recovery link's session owes the key too: the new-password page asks for it first.
      const { data: link, error } = await createClient(
        ctx.baseUrl,
        mintApiKey(jwtSecret, "service_role"),
        { auth: { persistSession: false, autoRefreshToken: false } },
      ).auth.admin.generateLink({
        type: "recovery",
        email,
        options: { redirectTo: `${ctx.baseUrl}/auth/reset-password` },
      });
      expect(error).toBeNull();
      await page.goto(link.properties!.action_link);
      await page.waitForURL((url) => url.pathname === "/auth/reset-password");
      await step.waitFor();
      expect(await axeViolations(page)).toEqual([]);
      await page.getByRole("button", { name: "Use security key" }).click();
      const reset = page.getByRole("form", { name: "Choose a new password" });
      await reset.getByLabel("New password", { exact: true }).fill("Keyed-New-Password-8");
      await reset.getByLabel("Confirm new password").fill("Keyed-New-Password-8");
      await reset.getByRole("button", { name: "Save new password" }).click();
      await toastText(page, "Password updated").waitFor();
    });
  },
  {
    host: "localhost",
    env: {
      GOTRUE_PASSKEY_ENABLED: "true",
      GOTRUE_MFA_WEB_AUTHN_ENROLL_ENABLED: "true",
      GOTRUE_MFA_WEB_AUTHN_VERIFY_ENABLED: "true",
    },
  },
);
