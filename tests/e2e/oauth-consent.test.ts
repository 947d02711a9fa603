// In a real browser: another app's request to use a Revwise account (GET /auth/v1/oauth/authorize)
// lands on /oauth/consent, which sends someone signed out to /auth and back; it says who asks, for
// what (in people's words) and on whose account; Allow goes back to the app with a code and its
// state, Deny with access_denied (by keyboard); the app is then listed on /account under "Apps you
// allowed" and removed there. axe-core finds nothing on either page.
import crypto from "node:crypto";
import { createClient } from "@supabase/supabase-js";
import type { Page } from "playwright-core";
import { expect, it } from "vitest";
import { mintApiKey } from "../../server/security/keys.ts";
import { TEST_JWT_SECRET } from "../support/app.ts";
import { PASSWORD, uniqueEmail } from "../support/auth.ts";
import { axeViolations } from "../support/axe.ts";
import { describeInBrowser } from "../support/browser.ts";
import { signInOnAuth } from "../support/browser-accounts.ts";
import { toastText } from "../support/forms.ts";
import { withTestSmtp } from "../support/smtp.ts";

const secret = new TextEncoder().encode(TEST_JWT_SECRET);
/** The app's own page for codes: never reached, the browser's request to it is caught. */
const CALLBACK = "http://127.0.0.1:9/callback";

describeInBrowser(
  "an app's request on /oauth/consent, and the apps allowed on /account",
  (ctx) => {
    const admin = () =>
      createClient(ctx.baseUrl, mintApiKey(secret, "service_role"), {
        auth: { persistSession: false, autoRefreshToken: false },
      }).auth.admin;

    async function account(label: string) {
      const email = uniqueEmail(label);
      const { error } = await admin().createUser({
        email,
        password: PASSWORD,
        email_confirm: true,
      });
      expect(error).toBeNull();
      return email;
    }

    async function registerApp(name: string) {
      const { data, error } = await admin().oauth.createClient({
        client_name: name,
        client_uri: "https://crm.example",
        redirect_uris: [CALLBACK],
      });
      expect(error).toBeNull();
      return data!.client_id;
    }

    /** The app sends the browser to our authorization endpoint (PKCE, a state). */
    function authorizeUrl(clientId: string, state: string) {
      const verifier = crypto.randomBytes(32).toString("base64url");
      const query = new URLSearchParams({
        client_id: clientId,
        redirect_uri: CALLBACK,
        response_type: "code",
        scope: "email profile",
        state,
        code_challenge: crypto.createHash("sha256").update(verifier).digest("base64url"),
        code_challenge_method: "S256",
      });
      return `${ctx.baseUrl}/auth/v1/oauth/authorize?${query}`;
    }

    /** The app's callback as the browser reaches it: its address, once the page shows it. */
    async function appCallback(page: Page): Promise<() => Promise<URL>> {
      let reached: (url: URL) => void;
      const url = new Promise<URL>((resolve) => (reached = resolve));
      await page.route(`${CALLBACK}**`, async (route) => {
        reached(new URL(route.request().url()));
        await route.fulfill({ status: 200, contentType: "text/plain", body: "back at the app" });
      });
      return async () => {
        const landed = await url;
        // Asked for is not yet shown: a navigation of the test's own would cut that one short.
        await page.waitForURL((shown) => shown.href.startsWith(CALLBACK));
        return landed;
      };
    }

    it("signs a signed-out person in first, then Allow goes back to the app; /account lists the app and removes it", async () => {
      const email = await account("oauth-allow");
      const clientId = await registerApp("Pipeline CRM");
      const page = await ctx.newPage();
      const back = await appCallback(page);

      await page.goto(authorizeUrl(clientId, "state-allow"));
      await page.waitForURL((url) => url.pathname === "/auth");
      expect(new URL(page.url()).searchParams.get("next")).toMatch(
        /^\/oauth\/consent\?authorization_id=/,
      );
      const form = page.getByRole("form", { name: "Sign in" });
      await form.getByLabel("Email").fill(email);
      await form.getByLabel("Password").fill(PASSWORD);
      await form.getByRole("button", { name: "Sign in" }).click();

      const request = page.getByRole("region", {
        name: "Pipeline CRM wants to use your Revwise account",
      });
      await request.waitFor();
      expect(new URL(page.url()).pathname).toBe("/oauth/consent");
      await request.getByText(email).waitFor();
      expect(await request.getByRole("listitem").allTextContents()).toEqual([
        "See your email address",
        "See your name and profile details",
      ]);
      expect(await request.getByRole("link", { name: "https://crm.example" }).count()).toBe(1);
      expect(await axeViolations(page)).toEqual([]);

      await request.getByRole("button", { name: "Allow" }).click();
      const landed = await back();
      expect(landed.searchParams.get("state")).toBe("state-allow");
      expect(landed.searchParams.get("code")).toMatch(/^[\w-]{43}$/);

      await page.goto("/account");
      const apps = page.getByRole("region", { name: "Apps you allowed" });
      await apps.getByText("1 app can use your account.").waitFor();
      await apps.getByText("Pipeline CRM").waitFor();
      await apps
        .getByText("Can: See your email address; See your name and profile details")
        .waitFor();
      expect(await axeViolations(page)).toEqual([]);
      await apps.getByRole("button", { name: "Remove Pipeline CRM's access" }).click();
      await toastText(page, "Access removed").waitFor();
      const none = apps.getByText("You haven't allowed any app to use your account.");
      await none.waitFor();
      await expect.poll(() => none.evaluate((p) => p === document.activeElement)).toBe(true);
      const [consent] = await ctx.db.query<{ revoked: boolean }>(
        `SELECT c.revoked_at IS NOT NULL AS revoked FROM auth.oauth_consents c
         JOIN auth.users u ON u.id = c.user_id WHERE u.email = $1`,
        [email],
      );
      expect(consent).toEqual({ revoked: true });
    });

    it("denies by keyboard: back to the app with access_denied and the state", async () => {
      const email = await account("oauth-deny");
      const clientId = await registerApp("Zap Flows");
      const page = await ctx.newPage();
      await signInOnAuth(page, email);
      await page.waitForURL((url) => url.pathname === "/");
      const back = await appCallback(page);

      await page.goto(authorizeUrl(clientId, "state-deny"));
      const request = page.getByRole("region", {
        name: "Zap Flows wants to use your Revwise account",
      });
      await request.waitFor();
      expect(await axeViolations(page)).toEqual([]);
      // Tab moves from Allow to Deny; Enter answers.
      await request.getByRole("button", { name: "Allow" }).focus();
      await page.keyboard.press("Tab");
      await expect
        .poll(() => page.evaluate(() => document.activeElement?.textContent))
        .toBe("Deny");
      await page.keyboard.press("Enter");
      const landed = await back();
      expect(Object.fromEntries(landed.searchParams)).toEqual({
        error: "access_denied",
        error_description: "User denied the request",
        state: "state-deny",
      });
    });

    it("says a request that cannot be answered (unknown or already answered) is so", async () => {
      const email = await account("oauth-gone");
      const page = await ctx.newPage();
      await signInOnAuth(page, email);
      await page.waitForURL((url) => url.pathname === "/");
      ctx.allowConsoleError(/status of 404/);
      await page.goto("/oauth/consent?authorization_id=not-a-request");
      await page.getByRole("region", { name: "This request can't be answered" }).waitFor();
      expect(await axeViolations(page)).toEqual([]);
    });
  },
  withTestSmtp(() => {}, { GOTRUE_OAUTH_SERVER_ENABLED: "true" }),
);
