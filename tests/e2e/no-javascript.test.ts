// The site with JavaScript off (or before a page's script has run). Forms: every form posts (no
// field ever travels in a URL) and lands on the page that says the form needs JavaScript; nothing
// is stored; a form whose submit waits for the robot check says so. Paths: the menus, the phone
// menu button, Request Access and Watch Demo are links to pages that do their job. Carousels show
// every slide, and no control that needs script is shown.
import type { Locator, Page } from "playwright-core";
import { expect, it } from "vitest";
import { faqs } from "../../app/content/faq.ts";
import { autopilotSlides, features, featuresSection } from "../../app/content/home.ts";
import { showcaseProducts } from "../../app/content/products.ts";
import { mainLinks, productLinks, resourceLinks } from "../../app/content/site.ts";
import { testimonials } from "../../app/content/testimonials.ts";
import { DEMO_PAGE_ROUTE } from "../../common/site-build.ts";
import { axeViolations } from "../support/axe.ts";
import { describeInBrowser } from "../support/browser.ts";
import { shownBox, within } from "./shown.ts";

/**
 * How the visitor sees each element the locator matches: `shown` when some of it is drawn (not
 * hidden, not clipped away by an ancestor, within the page's width), `whole` when all of it is.
 */
async function seen(locator: Locator) {
  const views = [];
  for (const element of await locator.all()) {
    const { box, shown } = await element.evaluate(shownBox);
    views.push({ shown: shown !== null, whole: shown !== null && within(box, shown) });
  }
  return views;
}

/** Expects the text in the part of the page, each copy the visitor can see drawn whole (and at least one). */
async function expectReadable(part: Locator, text: string, where: string) {
  const views = (await seen(part.getByText(text))).filter((v) => v.shown);
  expect(views.length, `${where}: "${text.slice(0, 40)}…" is not shown`).toBeGreaterThan(0);
  for (const view of views)
    expect(view.whole, `${where}: "${text.slice(0, 40)}…" is cut`).toBe(true);
}

/** Expects the picture shown: whole where mock-ups are drawn whole, cropped to its focus on a phone. */
async function expectPicture(page: Page, alt: string, width: number, where: string) {
  const [view] = await seen(page.locator("main").getByAltText(alt, { exact: true }));
  expect(view?.shown, `${where}: "${alt}" is not shown`).toBe(true);
  if (width >= 640) expect(view?.whole, `${where}: "${alt}" is cut`).toBe(true);
}

describeInBrowser("the site without JavaScript", (ctx) => {
  for (const [width, height] of [
    [1280, 900],
    [390, 844],
  ] as const) {
    it(`shows every feature, CRM slide and testimonial of the home page, and no carousel control, at ${width} px`, async () => {
      const page = await ctx.newPage({ javaScriptEnabled: false, width, height });
      await page.goto("/");
      const carousels = page.locator(
        "[data-island=feature-carousel], [data-island=autopilot-carousel], [data-island=testimonials]",
      );
      expect(await carousels.count()).toBe(3);
      for (const [n, item] of [...features, ...autopilotSlides].entries()) {
        await expectReadable(carousels, item.title, `slide ${n + 1}`);
        await expectReadable(carousels, item.description, `slide ${n + 1}`);
        await expectPicture(page, item.image.alt, width, `slide ${n + 1}`);
      }
      for (const t of testimonials) {
        await expectReadable(carousels, t.quote, t.name);
        await expectReadable(carousels, t.name, t.name);
      }
      expect(await carousels.locator("button").filter({ visible: true }).count()).toBe(0);
      // Nothing asks the reader to pick what cannot be picked.
      expect(await page.getByText(featuresSection.hint).isVisible()).toBe(false);
    });

    it(`shows every screenshot of the product pages with its caption, without arrows or dots, at ${width} px`, async () => {
      const page = await ctx.newPage({ javaScriptEnabled: false, width, height });
      for (const product of showcaseProducts) {
        await page.goto(product.page.path);
        const carousel = page.locator("[data-island=product-carousel]");
        for (const slide of product.slides) {
          await expectPicture(page, slide.alt, width, product.page.path);
          await expectReadable(carousel, slide.caption, product.page.path);
        }
        expect(await carousel.locator("button").filter({ visible: true }).count()).toBe(0);
      }
    });
  }

  it("shows the FAQ's highlighted question without a dismiss button that cannot work", async () => {
    const page = await ctx.newPage({ javaScriptEnabled: false });
    await page.goto("/faq");
    const highlighted = faqs.find((f) => f.isSpecial)!;
    await expectReadable(page.locator("main"), highlighted.answer, "/faq");
    const dismiss = page.getByRole("button", { name: "Dismiss the highlighted question" });
    expect(await dismiss.filter({ visible: true }).count()).toBe(0);
  });

  /** Every URL the page requested or navigated to, and the method of each request. */
  function recordTraffic(page: Page) {
    const urls: string[] = [];
    const posts: string[] = [];
    page.on("request", (request) => {
      urls.push(request.url());
      if (request.method() === "POST") posts.push(new URL(request.url()).pathname);
    });
    page.on("framenavigated", (frame) => urls.push(frame.url()));
    return { urls, posts };
  }

  const landed = async (page: Page) => {
    await page.getByRole("heading", { level: 1, name: "This form needs JavaScript" }).waitFor();
    expect(new URL(page.url()).pathname).toBe("/javascript-required");
    expect(new URL(page.url()).search).toBe("");
  };

  it("signs in: the password goes in a POST body, never in a URL or the history", async () => {
    const page = await ctx.newPage({ javaScriptEnabled: false });
    const traffic = recordTraffic(page);
    const password = "No-Script-Passphrase-41";
    await page.goto("/auth");
    const form = page.getByRole("form", { name: "Sign in" });
    await form.getByLabel("Email").fill("noscript@example.com");
    await form.getByLabel("Password").fill(password);
    await form.getByLabel("Password").press("Enter");
    await landed(page);
    expect(traffic.posts).toEqual(["/forms/no-javascript"]);
    for (const url of traffic.urls) {
      expect(url).not.toContain("No-Script");
      expect(url).not.toContain("noscript");
    }
    // Back in history: the sign-in page as it was, without the fields in its URL.
    await page.goBack();
    expect(page.url()).toBe(`${ctx.baseUrl}/auth`);
  });

  it("the sign-in page says up front that signing in needs JavaScript, as the account page does", async () => {
    const page = await ctx.newPage({ javaScriptEnabled: false });
    for (const route of ["/auth", "/account"]) {
      await page.goto(route);
      // Playwright's text and role queries skip <noscript>; CSS reaches what the browser shows.
      const notice = page.locator("main noscript p");
      await expect(notice.isVisible(), route).resolves.toBe(true);
      expect(await notice.textContent(), route).toContain("needs JavaScript");
    }
  });

  it("the account page shows its notice alone, not a loading line that never ends", async () => {
    const page = await ctx.newPage({ javaScriptEnabled: false });
    await page.goto("/account");
    expect(await page.getByText("Loading your account...").isVisible()).toBe(false);
    // Nor the room kept for the sign-in prompt the page's script would show.
    const notice = (await page.locator("main noscript p").boundingBox())!;
    const section = (await page.locator("main section").first().boundingBox())!;
    expect(section.y + section.height - (notice.y + notice.height)).toBeLessThan(100);
  });

  it("the newsletter in the footer: posts, stores nothing, and says how to reach us", async () => {
    const page = await ctx.newPage({ javaScriptEnabled: false });
    const traffic = recordTraffic(page);
    await page.goto("/blog");
    const form = page.getByRole("form", { name: "Newsletter" });
    await form.getByLabel("Email address").fill("noscript-reader@example.com");
    await form.getByRole("button", { name: "Subscribe" }).click();
    await landed(page);
    await page.getByRole("link", { name: "hello@revwise.example" }).waitFor();
    expect(traffic.posts).toEqual(["/forms/no-javascript"]);
    expect(traffic.urls.filter((u) => u.includes("noscript-reader"))).toEqual([]);
    expect(
      await ctx.db.query(
        "SELECT 1 FROM public.newsletter_subscribers WHERE email LIKE 'noscript%'",
      ),
    ).toEqual([]);
  });

  it("every form of the built pages posts to the fallback, but single sign-on's (it needs no script)", async () => {
    for (const route of [
      "/",
      "/auth",
      "/auth/reset-password",
      "/contact",
      "/request-demo",
      "/request-access",
    ]) {
      const html = await (await fetch(ctx.baseUrl + route)).text();
      const forms = html.match(/<form\b[^>]*>/g) ?? [];
      expect(forms.length, route).toBeGreaterThan(0);
      for (const tag of forms) {
        expect(tag, route).toContain('method="post"');
        const sso = route === "/auth" && tag.includes('action="/auth/v1/sso/email"');
        if (!sso) expect(tag, route).toContain('action="/forms/no-javascript"');
      }
    }
  });

  it("the page it lands on passes axe-core", async () => {
    const page = await ctx.newPage();
    await page.goto("/javascript-required", { waitUntil: "networkidle" });
    expect(await axeViolations(page)).toEqual([]);
  });

  it("says under a lead form's disabled submit what it needs, and where to write instead", async () => {
    const page = await ctx.newPage({ javaScriptEnabled: false });
    for (const route of ["/contact", "/request-demo", "/request-access"]) {
      await page.goto(route);
      const form = page.locator('form[action="/forms/no-javascript"]').first();
      await expect(form.locator('button[type="submit"]').isDisabled(), route).resolves.toBe(true);
      // Playwright's text and role queries skip <noscript>; CSS reaches what the browser shows.
      const note = form.locator("noscript p");
      await expect(note.isVisible(), route).resolves.toBe(true);
      expect(await note.textContent(), route).toContain("This form needs JavaScript");
      const mail = note.locator('a[href="mailto:hello@revwise.example"]');
      await expect(mail.isVisible(), route).resolves.toBe(true);
    }
  });

  it("the Products and Resources menus are links to pages listing their items", async () => {
    const page = await ctx.newPage({ javaScriptEnabled: false });
    await page.goto("/company");
    const nav = page.getByRole("navigation", { name: "Main" });
    await nav.getByRole("link", { name: "Products" }).click();
    await page.waitForURL("**/product");
    for (const name of ["Listen Wise", "Business Wise", "Role Wise"])
      expect(await page.locator("main").getByRole("link", { name }).count(), name).toBeGreaterThan(
        0,
      );
    await nav.getByRole("link", { name: "Resources" }).click();
    await page.waitForURL("**/resources");
    await page.getByRole("heading", { level: 1 }).waitFor();
    await page.locator("main").getByRole("link", { name: "Integrations" }).click();
    await page.waitForURL("**/resources/integrations");
  });

  it("every menu item is a link in every page's HTML", async () => {
    const page = await ctx.newPage({ javaScriptEnabled: false });
    await page.goto("/");
    for (const link of [...productLinks, ...resourceLinks, ...mainLinks]) {
      const anchors = page.locator(`a[href="${link.href}"]`);
      expect(await anchors.count(), link.href).toBeGreaterThan(0);
      expect(await anchors.filter({ visible: true }).count(), link.href).toBeGreaterThan(0);
    }
  });

  it("on a phone, the menu button leads to the footer's list of every page", async () => {
    const page = await ctx.newPage({ javaScriptEnabled: false, width: 390, height: 844 });
    await page.goto("/");
    await page.getByRole("link", { name: "Open menu" }).click();
    await page.waitForURL("**/#site-menu");
    const menu = page.getByRole("navigation", { name: "Footer" });
    // In view once the (smooth) scroll has arrived.
    await expect
      .poll(async () => (await menu.boundingBox())!.y, { timeout: 5000 })
      .toBeLessThan(844 / 2);
    expect((await menu.boundingBox())!.y).toBeGreaterThanOrEqual(0);
    const everyHeaderItem = [...productLinks, ...resourceLinks, ...mainLinks].map((l) => l.label);
    for (const name of [...everyHeaderItem, "Request Access", "Sign in"])
      expect(await menu.getByRole("link", { name, exact: true }).isVisible(), name).toBe(true);
  });

  it("Request Access leads to its own page with the form; Watch Demo to the demo page", async () => {
    const page = await ctx.newPage({ javaScriptEnabled: false });
    await page.goto("/");
    await page.getByRole("banner").getByRole("link", { name: "Request Access" }).click();
    await page.waitForURL("**/request-access");
    await page.getByRole("heading", { level: 1, name: "Request Access" }).waitFor();
    const form = page.getByRole("form", { name: "Request Access" });
    for (const label of ["First name", "Last name", "Work email", "Company name"])
      expect(await form.getByLabel(label).count(), label).toBe(1);
    expect(await form.getAttribute("method")).toBe("post");
    await page.goto("/");
    await page.getByRole("link", { name: "Watch Demo" }).first().click();
    await page.waitForURL((url) => url.pathname === DEMO_PAGE_ROUTE);
  });
});
