// Every page carries its own texts without JavaScript, and every interaction works (each page's
// accessibility at phone and desktop widths: accessibility-phone and accessibility-desktop).
import fs from "node:fs";
import path from "node:path";
import { expect, it } from "vitest";
import { faqs } from "../../app/content/faq.ts";
import { customerLogos } from "../../app/content/logos.ts";
import { integrations } from "../../app/content/integrations.ts";
import { pages, type PageInfo } from "../../app/content/pages.ts";
import { advisors, team } from "../../app/content/people.ts";
import { contact } from "../../app/content/site.ts";
import { zoomGuide } from "../../app/content/zoom.ts";
import { becomes, describeInBrowser } from "../support/browser.ts";
import { firstLoadJs } from "../support/first-load.ts";
import { allRoutes } from "../support/routes.ts";

const FOOTER = [
  "Terms of Service",
  "Privacy Policy",
  "Cookies Policy",
  "Zoom Documentation",
  "Blog",
  "FAQ",
  "2025",
];

/** Page by page: what the prerendered HTML must say. */
const PAGE_TEXTS: Record<string, string[]> = {
  "/": [
    "Watch Demo",
    "Sell like it&#x27;s 2025",
    "Manual CRM Entry",
    "Deal Updates",
    "Manual Deal Reviews",
    "Lost Customer Intelligence",
    "Put your best foot forward",
    "Customer Relationship Management",
    "Customer Relationship Memory",
    "Your CRM on Autopilot",
    "Trusted by 10,000+ companies around the world",
    "Book Demo",
    "Request Access",
  ],
  "/auth": [
    "Sign in to your account",
    "Enter your credentials below",
    'placeholder="Enter your email"',
    'placeholder="Enter your password"',
    'type="email"',
    "Sign in",
    "Sign up",
  ],
  "/faq": faqs.map((f) => f.question.replace(/'/g, "&#x27;")),
  "/blog": [
    "Latest posts",
    "All",
    "Where AI succeeds and fails in sales",
    "Generative AI in sales",
    "The Revwise manifesto",
    "Ten ways sellers",
  ],
  "/blog/ai-sales": ["Technology", "Mar 18, 2025", "Where AI succeeds and fails in sales"],
  "/blog/gen-ai-sales": ["Technology", "Mar 25, 2025", "Generative AI in sales"],
  "/blog/revwise-manifesto": ["Company", "Mar 10, 2025", "The Revwise manifesto"],
  "/blog/ten-ways-sellers": ["Sales", "Jun 24, 2025", "Ten ways sellers"],
  "/contact": ["hello@revwise.example", "+1 (206) 555-0142", "Seattle", "08:00 AM - 05:00 PM"],
  "/company": [
    "Vision",
    "Mission",
    "CEO &amp; Founder",
    "Founding Engineer",
    "Board of Advisors",
    ...team.map((p) => p.name),
    ...advisors.map((p) => p.name),
  ],
  "/request-demo": [
    "Request Demo",
    'name="name"',
    'name="email"',
    'name="phone"',
    'name="company"',
    'name="position"',
    'name="website"',
  ],
  "/privacy-policy": ["November 29, 2026", "Security log", "confirmation and unsubscribing"],
  "/cookies-policy": ["November 29, 2026", "revwise-lead-source", "revwise-flash-toasts"],
  "/terms-of-service": ["Terms of Service"],
  "/zoom-documentation": zoomGuide.steps.map((s) =>
    s.title.replace(/'/g, "&#x27;").replace(/&/g, "&amp;"),
  ),
  "/resources/integrations": integrations.map((i) => i.name),
  "/product/capture-wise": ["Sales Knowledge Chat", "Start For Free", "Try Live Demo"],
  "/product/job-wise": ["Sales Knowledge Chat", "Start For Free", "Try Live Demo"],
  "/product/sort-wise": ["Sales Knowledge Chat", "Start For Free", "Try Live Demo"],
  "/product/business-wise": [
    "Business Wise",
    'width="779" height="484"',
    "Previous slide",
    "Next slide",
    "Go to slide 3",
  ],
  "/product/listen-wise": ["Listen Wise", 'width="779" height="484"'],
  "/product/role-wise": ["Role Wise", 'width="779" height="484"'],
  "/product": ["/product/business-wise", "/product/role-wise", "/product/listen-wise"],
};

describeInBrowser("site", (ctx) => {
  it("carries each page's texts in its HTML, without JavaScript", async () => {
    const page = await ctx.newPage({ javaScriptEnabled: false });
    for (const [route, texts] of Object.entries(PAGE_TEXTS)) {
      await page.goto(route);
      const text = (await page.evaluate(() => document.body.textContent ?? "")).replace(
        /\s+/g,
        " ",
      );
      const html = await page.content();
      for (const expected of [...texts, ...FOOTER]) {
        const inText = text.includes(expected.replace(/&#x27;/g, "'").replace(/&amp;/g, "&"));
        expect(inText || html.includes(expected), `${route}: ${expected}`).toBe(true);
      }
    }
  });

  it("publishes structured data, a sitemap, robots.txt and an RSS feed", async () => {
    const ld = async (route: string) => {
      const html = await (await fetch(ctx.baseUrl + route)).text();
      return [...html.matchAll(/<script type="application\/ld\+json">([\s\S]*?)<\/script>/g)].map(
        (m) => JSON.parse(m[1]!),
      );
    };
    expect((await ld("/"))[0]).toMatchObject({
      "@type": "Organization",
      name: "Revwise",
      url: `${ctx.baseUrl}/`,
    });
    expect((await ld("/faq"))[0]).toMatchObject({
      "@type": "FAQPage",
      mainEntity: expect.arrayContaining([
        expect.objectContaining({ "@type": "Question", name: faqs[0]!.question }),
      ]),
    });
    expect((await ld("/blog/ai-sales"))[0]).toMatchObject({
      "@type": "BlogPosting",
      datePublished: "2025-03-18",
    });

    // Each page is either in the sitemap or marked noindex, never both and never neither.
    const sitemap = await (await fetch(`${ctx.baseUrl}/sitemap.xml`)).text();
    const noindex = new Set<string>();
    for (const route of allRoutes) {
      const html = await (await fetch(ctx.baseUrl + route)).text();
      const listed = sitemap.includes(`<loc>${ctx.baseUrl}${route}</loc>`);
      const marked = html.includes('<meta name="robots" content="noindex"/>');
      expect({ route, listed, marked }).toEqual({ route, listed: !marked, marked });
      if (marked) noindex.add(route);
    }
    expect([...noindex].sort()).toEqual(
      Object.values(pages)
        .filter((p: PageInfo) => p.noindex)
        .map((p) => p.path)
        .sort(),
    );
    expect(noindex).toContain("/auth");
    expect(noindex).toContain("/auth/reset-password");
    expect(await (await fetch(`${ctx.baseUrl}/robots.txt`)).text()).toContain(
      `Sitemap: ${ctx.baseUrl}/sitemap.xml`,
    );
    const rss = await fetch(`${ctx.baseUrl}/blog/rss.xml`);
    expect(rss.headers.get("content-type")).toMatch(/xml/);
    expect((await rss.text()).match(/<item>/g)).toHaveLength(4);
  });

  it("serves no React Router data file: pages are documents, never data for a client router", async () => {
    // React Router prerenders a .data file beside each page with a loader and each resource route
    // (robots.txt.data carried the build's placeholder origin); nothing on the site reads them.
    const data = fs
      .readdirSync(path.resolve("build/client"), { recursive: true, encoding: "utf8" })
      .filter((file) => /\.data(\.br|\.gz)?$/.test(file));
    expect(data).toEqual([]);
    for (const route of [...allRoutes, "/robots.txt", "/sitemap.xml", "/blog/rss.xml"]) {
      const url = `${ctx.baseUrl}${route === "/" ? "/_root" : route}.data`;
      expect((await fetch(url)).status, url).toBe(404);
    }
  });

  it("invites readers to write to the contact address only, never to the no-reply sender", async () => {
    for (const route of allRoutes) {
      const html = await (await fetch(ctx.baseUrl + route)).text();
      for (const [, href] of html.matchAll(/href="(mailto:[^"]*)"/g))
        expect(href, route).toBe(`mailto:${contact.email}`);
    }
  });

  it("shows the home page's customer logos once", async () => {
    const html = await (await fetch(`${ctx.baseUrl}/`)).text();
    for (const logo of customerLogos)
      expect(html.split(`alt="${logo.name}"`).length - 1, logo.name).toBe(1);
  });

  it("names in the cookie policy every item the site keeps in the browser", async () => {
    const page = await ctx.newPage();
    await page.goto("/?utm_source=newsletter&utm_campaign=autumn-launch");
    await page.waitForFunction(() => sessionStorage.getItem("revwise-lead-source") !== null);
    // A message for the next page (after a logout, a deletion, a confirmation) is kept too.
    await page.evaluate(() =>
      sessionStorage.setItem("revwise-flash-toasts", JSON.stringify([{ title: "Hi" }])),
    );
    const kept = await page.evaluate(() => [
      ...Object.keys(sessionStorage),
      ...Object.keys(localStorage),
    ]);
    expect(kept).toContain("revwise-lead-source");
    await page.goto("/cookies-policy");
    const policy = (await page.locator("main").textContent()) ?? "";
    for (const key of kept) expect(policy, key).toContain(key);
  });

  it("gives every image its size and a text alternative", async () => {
    for (const route of allRoutes) {
      const html = await (await fetch(ctx.baseUrl + route)).text();
      for (const img of html.match(/<img\b[^>]*>/g) ?? []) {
        expect(img, route).toMatch(/\swidth="\d+"/);
        expect(img, route).toMatch(/\sheight="\d+"/);
        expect(img, route).toMatch(/\salt="/);
      }
    }
  });

  it("asks for no script file before the first contentful paint, and for the islands runtime after it", async () => {
    for (const route of ["/", "/contact", "/product/sort-wise"]) {
      const page = await ctx.newPage();
      await page.goto(route, { waitUntil: "load" });
      await page.waitForFunction(() =>
        performance.getEntriesByType("resource").some((e) => /\/assets\/boot-/.test(e.name)),
      );
      const { paint, scripts } = await page.evaluate(() => ({
        paint: performance.getEntriesByName("first-contentful-paint")[0]?.startTime ?? NaN,
        scripts: performance
          .getEntriesByType("resource")
          .filter((e) => (e as PerformanceResourceTiming).initiatorType === "script")
          .map((e) => e.startTime),
      }));
      expect(paint, route).toBeGreaterThan(0);
      expect(scripts.length, route).toBeGreaterThan(0);
      expect(Math.min(...scripts), route).toBeGreaterThanOrEqual(paint);
      await page.close();
    }
  });

  it("keeps the home page's JavaScript before any interaction within 10 KB gzip, its inline scripts counted", async () => {
    const page = await ctx.newPage({ width: 390, height: 844, mobile: true });
    const home = await firstLoadJs(page, `${ctx.baseUrl}/`, path.resolve("build/client"));
    expect(home.files).toBeGreaterThan(0);
    expect(home.gzip).toBeLessThanOrEqual(10 * 1024);
    await page.close();
  });

  it("opens the Products and Resources menus with the keyboard", async () => {
    const page = await ctx.newPage();
    await page.goto("/company");
    const nav = page.getByRole("navigation", { name: "Main" });
    const products = nav.getByRole("link", { name: "Products" });
    await products.focus();
    await page.keyboard.press("Enter");
    await nav.getByRole("link", { name: /^Business Wise/ }).waitFor();
    await page.keyboard.press("Tab");
    await expect(page.evaluate(() => document.activeElement?.textContent)).resolves.toMatch(
      /^Listen Wise/,
    );
    await page.keyboard.press("Escape");
    await nav.getByRole("link", { name: /^Business Wise/ }).waitFor({ state: "hidden" });
    await expect(page.evaluate(() => document.activeElement?.textContent)).resolves.toBe(
      "Products",
    );
    await page.keyboard.press("Tab");
    await expect(page.evaluate(() => document.activeElement?.textContent)).resolves.toBe(
      "Resources",
    );
    await page.keyboard.press("Enter");
    await nav.getByRole("link", { name: /^Integrations/ }).waitFor();
    await nav.getByRole("link", { name: /^Integrations/ }).click();
    await page.waitForURL("**/resources/integrations");
    // Book Demo is the external scheduling page, in a new tab.
    const bookDemo = page.getByRole("banner").getByRole("link", { name: /Book Demo/ });
    expect(await bookDemo.getAttribute("target")).toBe("_blank");
    expect(await bookDemo.getAttribute("href")).toBe("https://cal.com/revwise/demo");
  });

  it("scrolls the looping feature carousel to the feature clicked in the list", async () => {
    const page = await ctx.newPage();
    await page.goto("/");
    const region = page.getByRole("region", { name: "Revwise features" });
    await region.scrollIntoViewIfNeeded();
    const features = page.locator("[data-island=feature-carousel] button[aria-pressed]");
    await page
      .locator("[data-island=feature-carousel][data-hydrated]")
      .waitFor({ state: "attached" });
    // Slides other than the current one are hidden from assistive technology.
    const slide = (n: number) => region.locator(`[aria-label="${n} of 5"]`);
    await features.nth(3).click();
    await page.waitForFunction(
      () =>
        document
          .querySelector('[data-island=feature-carousel] [aria-label="4 of 5"]')
          ?.getAttribute("aria-hidden") === null,
    );
    expect(await features.nth(3).getAttribute("aria-pressed")).toBe("true");
    expect(await slide(1).getAttribute("aria-hidden")).toBe("true");
    // It loops: next from the last slide is the first.
    await features.nth(4).click();
    await region.getByRole("button", { name: "Next slide" }).click();
    await page.waitForFunction(
      () =>
        document
          .querySelector('[data-island=feature-carousel] [aria-label="1 of 5"]')
          ?.getAttribute("aria-hidden") === null,
    );
    expect(await features.nth(0).getAttribute("aria-pressed")).toBe("true");
  });

  it("moves the CRM autopilot carousel by arrows, dots and arrow keys, not past its ends", async () => {
    const page = await ctx.newPage();
    await page.goto("/");
    const region = page.getByRole("region", { name: "CRM integrations" });
    await region.scrollIntoViewIfNeeded();
    await page
      .locator("[data-island=autopilot-carousel][data-hydrated]")
      .waitFor({ state: "attached" });
    const prev = region.getByRole("button", { name: "Previous slide" });
    const next = region.getByRole("button", { name: "Next slide" });
    expect(await prev.isDisabled()).toBe(true);
    await next.click();
    await region
      .getByRole("button", { name: "Go to slide 2" })
      .and(page.locator("[aria-current=true]"))
      .waitFor();
    await region.getByRole("button", { name: "Go to slide 3" }).click();
    await page.waitForFunction(
      () =>
        (
          document.querySelector(
            "[data-island=autopilot-carousel] [data-slot=carousel-next]",
          ) as HTMLButtonElement
        )?.disabled,
    );
    await region.focus();
    await page.keyboard.press("ArrowLeft");
    await region
      .getByRole("button", { name: "Go to slide 2" })
      .and(page.locator("[aria-current=true]"))
      .waitFor();
    await page.keyboard.press("ArrowLeft");
    await page.waitForFunction(
      () =>
        (
          document.querySelector(
            "[data-island=autopilot-carousel] [data-slot=carousel-previous]",
          ) as HTMLButtonElement
        )?.disabled,
    );
  });

  it("wraps the testimonials both ways", async () => {
    const page = await ctx.newPage();
    await page.goto("/");
    const previous = page.getByRole("button", { name: "Previous testimonial" });
    await previous.scrollIntoViewIfNeeded();
    await page.locator("[data-island=testimonials][data-hydrated]").waitFor({ state: "attached" });
    const counter = page.locator("[data-island=testimonials] p.tabular-nums");
    expect((await counter.textContent())?.replace(/\s+/g, " ")).toContain("1 / of 3");
    await previous.click();
    expect((await counter.textContent())?.replace(/\s+/g, " ")).toContain("3 / of 3");
    await page.getByRole("button", { name: "Next testimonial" }).click();
    expect((await counter.textContent())?.replace(/\s+/g, " ")).toContain("1 / of 3");
  });

  it("runs the product image carousel by arrows, dots and keys, disabled at the ends", async () => {
    const page = await ctx.newPage();
    await page.goto("/product/listen-wise");
    await page
      .locator("[data-island=product-carousel][data-hydrated]")
      .waitFor({ state: "attached" });
    const region = page.locator("[data-island=product-carousel] [role=region]");
    const prev = region.getByRole("button", { name: "Previous slide" });
    const next = region.getByRole("button", { name: "Next slide" });
    // The island is hydrated before the carousel's engine starts (an effect): wait for it.
    await becomes(next, "enabled");
    expect(await prev.isDisabled()).toBe(true);
    await region.getByRole("button", { name: "Go to slide 3" }).click();
    await becomes(next, "disabled");
    await region.focus();
    await page.keyboard.press("ArrowLeft");
    await page.keyboard.press("ArrowLeft");
    await becomes(prev, "disabled");
    await page.keyboard.press("ArrowRight");
    await region
      .getByRole("button", { name: "Go to slide 2" })
      .and(page.locator("[aria-current=true]"))
      .waitFor();
    const image = region.locator("img").first();
    expect([await image.getAttribute("width"), await image.getAttribute("height")]).toEqual([
      "779",
      "484",
    ]);
  });

  it("keeps one FAQ answer open at a time and lets the highlighted card be dismissed", async () => {
    const page = await ctx.newPage();
    await page.goto("/faq");
    const items = page.locator("details[name=faq]");
    expect(await items.count()).toBe(faqs.length);
    await items.nth(1).locator("summary").click();
    await items.nth(3).locator("summary").click();
    expect(
      await items.evaluateAll((els) => els.map((e) => (e as HTMLDetailsElement).open)),
    ).toEqual(faqs.map((_, i) => i === 3));
    const card = page.getByRole("region", { name: faqs[0]!.question });
    await card.waitFor();
    await page.getByRole("button", { name: "Dismiss the highlighted question" }).click();
    await card.waitFor({ state: "detached" });
  });

  it("holds the banner still for people who prefer reduced motion", async () => {
    const context = await ctx.browser.newContext({ reducedMotion: "reduce", baseURL: ctx.baseUrl });
    const page = await context.newPage();
    await page.goto("/");
    const duration = await page
      .locator(".animate-marquee")
      .first()
      .evaluate((el) => getComputedStyle(el).animationDuration);
    expect(parseFloat(duration)).toBeLessThan(0.001);
    await context.close();
  });
});
