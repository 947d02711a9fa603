// The visitor's ways around the site with JavaScript on: the menus open on the first hover, the
// phone drawer's Request Access opens its dialog, sign-in is linked from every page, and a
// signed-in visitor's header neither flashes Request Access nor moves as the page wakes.
import { expect, it } from "vitest";
import { PASSWORD, uniqueEmail } from "../support/auth.ts";
import { axeViolations as axe } from "../support/axe.ts";
import { describeInBrowser } from "../support/browser.ts";

describeInBrowser(
  "navigation",
  (ctx) => {
    it("opens the Products menu on the first hover after load, within the menu's delay of waking", async () => {
      const page = await ctx.newPage();
      await page.goto("/company", { waitUntil: "load" });
      expect(await axe(page)).toEqual([]);
      const nav = page.getByRole("navigation", { name: "Main" });
      const box = (await nav.getByRole("link", { name: "Products" }).boundingBox())!;
      // One move onto the trigger, then the mouse rests there.
      await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
      await page
        .locator('[data-island="desktop-nav"][data-hydrated]')
        .waitFor({ state: "attached" });
      const woke = Date.now();
      await nav.getByRole("link", { name: /^Business Wise/ }).waitFor({ timeout: 1000 });
      expect(Date.now() - woke).toBeLessThan(1000);
      // Moving on to Resources switches menus at once (the skip delay), as before.
      const resources = (await nav.getByRole("link", { name: "Resources" }).boundingBox())!;
      await page.mouse.move(resources.x + resources.width / 2, resources.y + resources.height / 2, {
        steps: 4,
      });
      await nav.getByRole("link", { name: /^Integrations/ }).waitFor({ timeout: 1500 });
    });

    it("passes axe with a menu open, by hover or by the keyboard, with the focus on its trigger or in it", async () => {
      const page = await ctx.newPage();
      await page.goto("/company", { waitUntil: "load" });
      const nav = page.getByRole("navigation", { name: "Main" });
      const products = nav.getByRole("link", { name: "Products" });
      const firstProduct = nav.getByRole("link", { name: /^Listen Wise/ });
      await products.hover();
      await firstProduct.waitFor();
      expect(await axe(page), "open by hover").toEqual([]);
      await page.mouse.move(0, 600);
      await firstProduct.waitFor({ state: "hidden" });

      await products.focus();
      await page.keyboard.press("Enter");
      await firstProduct.waitFor();
      expect(await axe(page), "open by Enter, focus on the trigger").toEqual([]);
      await page.keyboard.press("Tab");
      expect(await firstProduct.evaluate((a) => a === document.activeElement)).toBe(true);
      expect(await axe(page), "focus in the menu").toEqual([]);
      await page.keyboard.press("Escape");
      await firstProduct.waitFor({ state: "hidden" });
      expect(await products.evaluate((a) => a === document.activeElement)).toBe(true);

      // ↓ opens a menu into its first link, ↓ moves on, ← and → go between the top-level items.
      const focused = () => page.evaluate(() => document.activeElement?.textContent);
      await page.keyboard.press("ArrowDown");
      await expect.poll(focused).toMatch(/^Listen Wise/);
      await page.keyboard.press("ArrowDown");
      await expect.poll(focused).toMatch(/^Business Wise/);
      expect(await axe(page), "focus moved in the menu by ↓").toEqual([]);
      await page.keyboard.press("Escape");
      await expect.poll(focused).toBe("Products");
      await page.keyboard.press("ArrowRight");
      await expect.poll(focused).toBe("Resources");
    });

    it("passes axe with the phone's menu drawer opened by a tap", async () => {
      const page = await ctx.newPage({ width: 390, height: 844, mobile: true });
      await page.goto("/", { waitUntil: "load" });
      await page.getByRole("link", { name: "Open menu" }).tap();
      const drawer = page.getByRole("dialog", { name: "Menu" });
      await drawer.getByRole("link", { name: "Integrations" }).waitFor();
      expect(await axe(page)).toEqual([]);
    });

    it("a plain click on a menu trigger opens the menu, not the page behind it", async () => {
      const page = await ctx.newPage();
      await page.goto("/company", { waitUntil: "load" });
      const nav = page.getByRole("navigation", { name: "Main" });
      await nav.getByRole("link", { name: "Resources" }).click();
      await nav.getByRole("link", { name: /^Integrations/ }).waitFor();
      expect(new URL(page.url()).pathname).toBe("/company");
    });

    it("on a phone, Request Access in the bottom drawer opens the dialog, which stays as the drawer closes and gives the focus back to Open menu", async () => {
      const page = await ctx.newPage({ width: 390, height: 844, mobile: true });
      await page.goto("/", { waitUntil: "load" });
      await page.getByRole("link", { name: "Open menu" }).click();
      const drawer = page.getByRole("dialog", { name: "Menu" });
      await drawer.waitFor();
      await drawer.getByRole("link", { name: "Request Access" }).click();
      // The drawer is gone (its close animation over: it leaves the page at its end) and the
      // dialog is there, and stays usable through the steps below.
      await drawer.waitFor({ state: "detached" });
      const dialog = page.getByRole("dialog", { name: "Request Access" });
      await dialog.waitFor();
      // The closing drawer leaves the focus in the dialog.
      expect(await dialog.evaluate((d) => d.contains(document.activeElement))).toBe(true);
      await dialog.getByLabel("First name").fill("Ada");
      await expect(dialog.getByLabel("First name").inputValue()).resolves.toBe("Ada");
      expect(new URL(page.url()).pathname).toBe("/");
      expect(await axe(page)).toEqual([]);
      await page.keyboard.press("Escape");
      await dialog.waitFor({ state: "detached" });
      // The drawer's button went with the drawer: the focus goes back to the menu's (WCAG 2.4.3).
      const menu = page.getByRole("link", { name: "Open menu" });
      await expect.poll(() => menu.evaluate((a) => a === document.activeElement)).toBe(true);
    });

    it("on a phone, the menu drawer takes the focus, keeps it while open, and gives it back to Open menu as it closes", async () => {
      const page = await ctx.newPage({ width: 390, height: 844, mobile: true });
      await page.goto("/", { waitUntil: "load" });
      const menu = page.getByRole("link", { name: "Open menu" });
      await menu.focus();
      await page.keyboard.press("Enter");
      const drawer = page.getByRole("dialog", { name: "Menu" });
      await drawer.waitFor();
      const inDrawer = () => drawer.evaluate((d) => d.contains(document.activeElement));
      await expect.poll(inDrawer).toBe(true);
      // Tab and Shift+Tab go round the drawer's items, never to the page behind it.
      const items = await drawer.locator("a:visible, button:visible").count();
      for (let i = 0; i <= items; i++) {
        await page.keyboard.press("Tab");
        expect(await inDrawer(), `Tab ${i + 1}`).toBe(true);
      }
      await page.keyboard.press("Shift+Tab");
      expect(await inDrawer(), "Shift+Tab").toBe(true);
      expect(await axe(page)).toEqual([]);
      await page.keyboard.press("Escape");
      await drawer.waitFor({ state: "detached" });
      expect(await menu.evaluate((a) => a === document.activeElement)).toBe(true);
    });

    it("links sign-in from the footer of every page, beside Request Access", async () => {
      const page = await ctx.newPage();
      await page.goto("/blog");
      const footer = page.getByRole("navigation", { name: "Footer" });
      await expect(
        footer.getByRole("link", { name: "Sign in" }).getAttribute("href"),
      ).resolves.toBe("/auth");
      await footer.getByRole("link", { name: "Sign in" }).click();
      await page.getByRole("heading", { level: 1, name: "Sign in to your account" }).waitFor();
    });

    it("shows a signed-in visitor Logout from the first paint, and the header does not move as the page wakes", async () => {
      const page = await ctx.newPage();
      const email = uniqueEmail("header");
      await page.goto("/auth", { waitUntil: "load" });
      const form = page.getByRole("form", { name: "Sign in" });
      await form.getByLabel("Email").fill(email);
      await form.getByLabel("Password").fill(PASSWORD);
      await form.getByRole("button", { name: "Sign up" }).click();
      // Signed up and signed in at once (accounts confirm themselves in this server).
      await page.waitForFunction(() =>
        Object.keys(localStorage).some((key) => key.endsWith("-auth-token")),
      );
      const banner = page.getByRole("banner");

      // The next page: hold every script file, so the page stays as first painted.
      let release!: () => void;
      const released = new Promise<void>((resolve) => (release = resolve));
      await page.route(/\/assets\/[\w.-]+\.js$/, async (route) => {
        await released;
        await route.continue();
      });
      await page.addInitScript(() => {
        const w = window as unknown as { shifts: number };
        w.shifts = 0;
        new PerformanceObserver((list) => {
          for (const entry of list.getEntries())
            w.shifts += (entry as unknown as { value: number }).value;
        }).observe({ type: "layout-shift", buffered: true });
      });
      await page.goto("/company", { waitUntil: "domcontentloaded" });
      const logout = banner.getByRole("button", { name: "Logout" });
      await logout.waitFor();
      expect(await banner.getByRole("link", { name: "Request Access" }).count()).toBe(0);
      const bookDemo = banner.getByRole("link", { name: /Book Demo/ });
      const before = { demo: await bookDemo.boundingBox(), logout: await logout.boundingBox() };
      expect(await page.locator('[data-island="account-action"][data-hydrated]').count()).toBe(0);

      release();
      await page.locator('[data-island="account-action"][data-hydrated]').waitFor({
        state: "attached",
      });
      // The session is confirmed once supabase-js has loaded and read it.
      await page.waitForLoadState("networkidle");
      await logout.waitFor();
      expect({ demo: await bookDemo.boundingBox(), logout: await logout.boundingBox() }).toEqual(
        before,
      );
      expect(await page.evaluate(() => (window as unknown as { shifts: number }).shifts)).toBe(0);
    });
  },
  { env: { MAILER_AUTOCONFIRM: "true" } },
);
