// What a visitor meets: the product tour works by keyboard, honours reduced motion and reads
// without JavaScript; every product page and article ends with one next step; every lead form
// says what happens with the data and links the privacy policy.
import type { Page } from "playwright-core";
import { expect, it } from "vitest";
import { postSummaries } from "../../app/content/blog-posts.ts";
import { pages } from "../../app/content/pages.ts";
import { assistantProducts, showcaseProducts } from "../../app/content/products.ts";
import { tourSteps } from "../../app/content/tour.ts";
import { axeViolations } from "../support/axe.ts";
import { describeInBrowser } from "../support/browser.ts";

const TOUR = pages.tour.path;
const productPaths = [...showcaseProducts, ...assistantProducts].map((p) => p.page.path);

/** The tour once its island has turned the list into tabs. */
async function openTour(page: Page) {
  await page.goto(TOUR);
  await page.locator("[data-island=product-tour] [data-tour-enhanced]").waitFor();
  return {
    tabs: page.getByRole("tablist", { name: "Tour steps" }).getByRole("tab"),
    panel: page.getByRole("tabpanel"),
    previous: page.getByRole("button", { name: "Previous step" }),
    next: page.getByRole("button", { name: "Next step" }),
  };
}

const focusedName = (page: Page) =>
  page.evaluate(() => document.activeElement?.textContent?.replace(/\s+/g, " ").trim() ?? "");

describeInBrowser("what a visitor meets", (ctx) => {
  it("reads the whole tour without JavaScript: every step in order, each with its screen", async () => {
    const page = await ctx.newPage({ javaScriptEnabled: false });
    await page.goto(TOUR);
    const steps = page.locator("[data-island=product-tour] ol > li[id^=step-]");
    expect(await steps.count()).toBe(tourSteps.length);
    expect(await steps.locator("h2").allTextContents()).toEqual(tourSteps.map((s) => s.title));
    for (const step of tourSteps) {
      const item = page.locator(`#step-${step.id}`);
      expect(await item.locator("img").getAttribute("alt")).toBe(step.image.alt);
      expect(await page.locator(`nav a[href="#step-${step.id}"]`).count()).toBe(1);
    }
    expect(await page.getByRole("tab").count()).toBe(0);
  });

  it("steps through the tour with Previous and Next, keeping the focus and saying where it is", async () => {
    const page = await ctx.newPage();
    const { tabs, panel, previous, next } = await openTour(page);
    expect(await tabs.count()).toBe(tourSteps.length);
    expect(await tabs.first().getAttribute("aria-selected")).toBe("true");
    expect(await panel.getByRole("heading", { level: 2 }).textContent()).toBe(tourSteps[0]!.title);
    expect(await previous.getAttribute("aria-disabled")).toBe("true");

    await next.focus();
    await page.keyboard.press("Enter");
    expect(await tabs.nth(1).getAttribute("aria-selected")).toBe("true");
    expect(await panel.getByRole("heading", { level: 2 }).textContent()).toBe(tourSteps[1]!.title);
    expect(await focusedName(page)).toBe("Next step");
    await page
      .getByRole("status")
      .filter({ hasText: `Step 2 of ${tourSteps.length}: ${tourSteps[1]!.title}` })
      .waitFor();
    expect(await panel.getAttribute("aria-labelledby")).toBe(await tabs.nth(1).getAttribute("id"));

    // Space works too; at the last step Next stays focused and does nothing more.
    for (let i = 2; i < tourSteps.length + 2; i++) await page.keyboard.press("Space");
    expect(await tabs.last().getAttribute("aria-selected")).toBe("true");
    expect(await next.getAttribute("aria-disabled")).toBe("true");
    expect(await focusedName(page)).toBe("Next step");

    await page.keyboard.press("Shift+Tab");
    expect(await focusedName(page)).toBe("Previous step");
    await page.keyboard.press("Enter");
    expect(await panel.getByRole("heading", { level: 2 }).textContent()).toBe(
      tourSteps.at(-2)!.title,
    );
    expect(await next.getAttribute("aria-disabled")).toBe("false");
  });

  it("moves between the tour's tabs with the arrow keys, Home and End (one tab stop)", async () => {
    const page = await ctx.newPage();
    const { tabs, panel } = await openTour(page);
    expect(await tabs.evaluateAll((els) => els.map((e) => e.getAttribute("tabindex")))).toEqual(
      tourSteps.map((_, i) => (i === 0 ? "0" : "-1")),
    );
    await tabs.first().focus();
    await page.keyboard.press("ArrowRight");
    expect(await tabs.nth(1).getAttribute("aria-selected")).toBe("true");
    expect(await focusedName(page)).toContain(tourSteps[1]!.title);
    await page.keyboard.press("End");
    expect(await focusedName(page)).toContain(tourSteps.at(-1)!.title);
    await page.keyboard.press("ArrowRight");
    expect(await focusedName(page)).toContain(tourSteps[0]!.title);
    await page.keyboard.press("ArrowLeft");
    await page.keyboard.press("Home");
    expect(await tabs.first().getAttribute("aria-selected")).toBe("true");
    // Tab leaves the tab list for the panel.
    await page.keyboard.press("Tab");
    expect(await panel.evaluate((el) => el === document.activeElement)).toBe(true);
    expect(await axeViolations(page)).toEqual([]);
  });

  it("opens the step a link names (#step-<id>)", async () => {
    const page = await ctx.newPage();
    const step = tourSteps[3]!;
    await page.goto(`${TOUR}#step-${step.id}`);
    await page.locator("[data-tour-enhanced]").waitFor();
    expect(await page.getByRole("tabpanel").getByRole("heading").textContent()).toBe(step.title);
  });

  it("animates a new step only for people who do not ask for reduced motion", async () => {
    const durations: number[] = [];
    for (const reducedMotion of ["no-preference", "reduce"] as const) {
      const context = await ctx.browser.newContext({ reducedMotion, baseURL: ctx.baseUrl });
      const page = await context.newPage();
      const { next, panel } = await openTour(page);
      await next.click();
      durations.push(
        await panel.evaluate((el) => parseFloat(getComputedStyle(el).animationDuration)),
      );
      await context.close();
    }
    expect(durations[0]).toBeGreaterThan(0.1);
    expect(durations[1]).toBeLessThan(0.001);
  });

  it("passes axe on the tour at phone width, where the steps stack", async () => {
    const page = await ctx.newPage({ width: 390, height: 844, mobile: true });
    const { next } = await openTour(page);
    await next.click();
    expect(await axeViolations(page)).toEqual([]);
  });

  it("ends every product page, the tour and every article with one call to action", async () => {
    const page = await ctx.newPage({ javaScriptEnabled: false });
    const articles = postSummaries().map((p) => `/blog/${p.slug}`);
    for (const route of [pages.products.path, TOUR, ...productPaths, ...articles]) {
      await page.goto(route);
      const last = page.locator("main > section").last();
      expect(await last.getAttribute("aria-labelledby"), route).toBe("cta-band-title");
      const links = await last
        .getByRole("link")
        .evaluateAll((els) => els.map((e) => (e as HTMLAnchorElement).getAttribute("href")));
      expect(links.length, route).toBeGreaterThanOrEqual(1);
      expect(links.length, route).toBeLessThanOrEqual(2);
      if (route !== TOUR) expect(links, route).toContain(TOUR);
    }
  });

  it("offers one next step on /use-cases, links the FAQ's next steps and the chat products", async () => {
    const page = await ctx.newPage({ javaScriptEnabled: false });
    await page.goto(pages.useCases.path);
    const band = page.locator("section[aria-labelledby=cta-band-title]");
    expect(await band.getByRole("link").count()).toBe(1);
    expect(await band.getByText("Request a demo").count()).toBe(0);

    await page.goto(pages.faq.path);
    const started = page.locator("details", { hasText: "How do I get started?" });
    await started.locator("summary").click();
    expect(await started.getByRole("link", { name: /Book Demo/ }).count()).toBe(1);
    expect(await started.getByRole("link", { name: "Request Access" }).count()).toBe(1);

    await page.goto(pages.products.path);
    for (const product of assistantProducts)
      expect(
        await page.locator(`main a[href="${product.page.path}"]`).count(),
        product.page.path,
      ).toBe(1);
  });

  it("draws the chat mock's Start For Free and Try Live Demo as part of the picture", async () => {
    const page = await ctx.newPage();
    for (const path of assistantProducts.map((p) => p.page.path)) {
      await page.goto(path);
      for (const label of ["Start For Free", "Try Live Demo"]) {
        const text = page.getByText(label, { exact: true });
        expect(await text.count(), `${path}: ${label}`).toBe(1);
        expect(await text.evaluate((el) => el.closest("[aria-hidden=true]") !== null)).toBe(true);
        expect(await page.getByRole("button", { name: label }).count()).toBe(0);
      }
    }
  });

  it("says under every lead form what happens with the data and links the privacy policy", async () => {
    const page = await ctx.newPage();
    const privacyLink = `[data-privacy-note] a[href="${pages.privacy.path}"]`;
    const check = async (form: string, where: string) => {
      const note = page.locator(form).locator("[data-privacy-note]");
      expect(await note.count(), where).toBe(1);
      expect((await note.textContent())?.length, where).toBeGreaterThan(30);
      expect(await page.locator(form).locator(privacyLink).count(), where).toBe(1);
    };
    await page.goto(pages.contact.path);
    await check("main form", "contact form");
    await check("footer form[aria-label=Newsletter]", "newsletter");
    await page.goto(pages.requestDemo.path);
    await check("main form", "request demo form");

    await page.goto("/");
    await page.getByRole("banner").getByRole("link", { name: "Request Access" }).click();
    await page.getByRole("dialog", { name: "Request Access" }).waitFor();
    await check("[role=dialog] form", "request access dialog");
    await page.keyboard.press("Escape");
    await page.getByRole("dialog").waitFor({ state: "detached" });

    await page.getByRole("link", { name: "Watch Demo" }).first().click();
    const demo = page.getByRole("dialog", { name: "Watch the Revwise demo" });
    await demo.waitFor();
    await check("[role=dialog] form", "demo dialog");
    expect(await axeViolations(page)).toEqual([]);
  });
});
