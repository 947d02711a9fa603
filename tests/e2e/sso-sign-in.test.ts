// In a real browser: "Sign in with SSO" on /auth. The form is there from the first paint when
// single sign-on is on (before the page's script, and without it: a plain form); a work email's
// domain leads to the company's identity provider (a real SAML IdP on loopback, samlify signing
// its answers), whose answer the browser posts back, and the person lands signed in on the page
// they were going to (`next`). An address whose domain has no provider is told so. axe finds
// nothing on the sign-in page with the form.
import crypto from "node:crypto";
import { expect, it } from "vitest";
import { loadKeys } from "../../server/security/keys.ts";
import { tempDir, TEST_JWT_SECRET } from "../support/app.ts";
import { axeViolations } from "../support/axe.ts";
import { describeInBrowser } from "../support/browser.ts";
import { samlPrivateKeyEnv, startSamlIdp, type TestSamlIdp } from "../support/saml-idp.ts";

const EMAIL_ATTRIBUTE = "http://schemas.xmlsoap.org/ws/2005/05/identity/claims/emailaddress";
const domain = `acme-${crypto.randomUUID().slice(0, 8)}.example`;
let idp: TestSamlIdp;
let baseUrl = "";

describeInBrowser(
  "single sign-on from the sign-in page",
  (ctx) => {
    /** The company's provider, registered once with the admin API for `domain`. */
    let registered: Promise<void> | undefined;
    function registerProvider() {
      baseUrl = ctx.baseUrl;
      registered ??= (async () => {
        const { serviceRoleKey } = await loadKeys({
          jwtSecret: TEST_JWT_SECRET,
          dataDir: tempDir(),
        });
        const res = await fetch(`${ctx.baseUrl}/auth/v1/admin/sso/providers`, {
          method: "POST",
          headers: {
            apikey: serviceRoleKey,
            authorization: `Bearer ${serviceRoleKey}`,
            "content-type": "application/json",
          },
          body: JSON.stringify({ type: "saml", metadata_xml: idp.metadataXml, domains: [domain] }),
        });
        expect(res.status).toBe(201);
      })();
      return registered;
    }

    it("shows the form from the first paint, without the page's script, and passes axe", async () => {
      const page = await ctx.newPage();
      await page.route(/\/assets\/[\w.-]+\.js$/, () => {});
      await page.goto("/auth", { waitUntil: "domcontentloaded" });
      const form = page.getByRole("form", { name: "Sign in with SSO" });
      await form.getByLabel("Work email").waitFor();
      expect(await form.getAttribute("action")).toBe("/auth/v1/sso/email");
      expect(await axeViolations(page)).toEqual([]);
    });

    it("signs in at the company's provider by the work email's domain, and lands on `next`", async () => {
      await registerProvider();
      const email = `robin-${Date.now()}@${domain}`;
      idp.person = {
        nameId: `emp-${crypto.randomUUID()}`,
        attributes: { [EMAIL_ATTRIBUTE]: [email] },
      };
      const page = await ctx.newPage();
      await page.goto("/auth?next=/account");
      const form = page.getByRole("form", { name: "Sign in with SSO" });
      await form.getByLabel("Work email").fill(email);
      await form.getByRole("button", { name: "Sign in with SSO" }).click();
      await page.waitForURL(`${ctx.baseUrl}/account`);
      await page.getByRole("region", { name: "Profile" }).waitFor();
      await expect.poll(() => page.locator("main").innerText()).toContain(email);
      expect(new URL(page.url()).hash).toBe("");
    });

    it("starts the sign-in without JavaScript too", async () => {
      await registerProvider();
      const page = await ctx.newPage({ javaScriptEnabled: false });
      await page.goto("/auth");
      const form = page.getByRole("form", { name: "Sign in with SSO" });
      await form.getByLabel("Work email").fill(`sam@${domain}`);
      await form.getByRole("button", { name: "Sign in with SSO" }).click();
      // The provider's answer page, which (without script) offers its button to post it back.
      await page.getByRole("button", { name: "Continue" }).waitFor();
      expect(new URL(page.url()).origin).toBe(new URL(idp.metadataUrl).origin);
    });

    it("says when no company sign-in is set up for the address's domain", async () => {
      const page = await ctx.newPage();
      await page.goto("/auth");
      const form = page.getByRole("form", { name: "Sign in with SSO" });
      await form.getByLabel("Work email").fill("someone@no-sso.example");
      await form.getByRole("button", { name: "Sign in with SSO" }).click();
      await page.waitForURL(/\/auth\?/);
      await expect
        .poll(() => page.getByRole("status").allInnerTexts())
        .toContainEqual(expect.stringContaining("No SSO provider assigned for this domain"));
    });
  },
  {
    env: async () => {
      idp = await startSamlIdp(async () =>
        (await fetch(`${baseUrl}/auth/v1/sso/saml/metadata`)).text(),
      );
      return { GOTRUE_SAML_ENABLED: "true", GOTRUE_SAML_PRIVATE_KEY: samlPrivateKeyEnv() };
    },
    teardown: () => idp.close(),
  },
);
