// Every route of the site is served prerendered with the shared shell; unknown paths get
// the 404 pages; caching, compression and redirects behave; the phone drawer works.
import crypto from "node:crypto";
import { expect, it } from "vitest";
import { describeInBrowser } from "../support/browser.ts";
import { allRoutes } from "../support/routes.ts";

describeInBrowser("platform: the built site on the real server", (ctx) => {
  it("serves every route of the site with 200 and the shell in the HTML itself", async () => {
    expect(allRoutes).toEqual(
      expect.arrayContaining([
        "/",
        "/auth",
        "/faq",
        "/blog",
        "/contact",
        "/company",
        "/use-cases",
        "/request-demo",
        "/terms-of-service",
        "/privacy-policy",
        "/cookies-policy",
        "/zoom-documentation",
        "/documentation",
        "/blog/ai-sales",
        "/blog/gen-ai-sales",
        "/blog/revwise-manifesto",
        "/blog/ten-ways-sellers",
        "/product/business-wise",
        "/product/capture-wise",
        "/product/job-wise",
        "/product/listen-wise",
        "/product/role-wise",
        "/product/sort-wise",
        "/resources/integrations",
      ]),
    );
    for (const route of allRoutes) {
      const res = await fetch(ctx.baseUrl + route);
      const html = await res.text();
      expect(res.status, route).toBe(200);
      expect(res.headers.get("content-type"), route).toBe("text/html; charset=utf-8");
      expect(html, route).toMatch(/<h1[^>]*>[^<]+/);
      expect(html, route).toContain("Skip to content");
      expect(html, route).toContain("Products");
      expect(html, route).toContain("Book Demo");
      expect(html, route).toContain("© <!-- -->2025");
      expect(html, route).toMatch(/<title>[^<]+<\/title>/);
      expect(html, route).toContain(
        `<link rel="canonical" href="${ctx.baseUrl}${route === "/" ? "/" : route}"/>`,
      );
      expect(html, route).not.toContain("__REVWISE_ANON_KEY__");
      expect(html, route).not.toContain("site-url.revwise.invalid");
    }
  });

  it("gives every page a unique title and description", async () => {
    const titles = new Set<string>();
    const descriptions = new Set<string>();
    for (const route of allRoutes) {
      const html = await (await fetch(ctx.baseUrl + route)).text();
      titles.add(/<title>([^<]+)<\/title>/.exec(html)![1]!);
      descriptions.add(/<meta name="description" content="([^"]+)"/.exec(html)![1]!);
    }
    expect(titles.size).toBe(allRoutes.length);
    expect(descriptions.size).toBe(allRoutes.length);
  });

  it("answers unknown paths with 404 and the not-found page, and unknown posts with the blog's", async () => {
    const page = await ctx.newPage();
    ctx.allowConsoleError(/Failed to load resource: the server responded with a status of 404/);
    const res = await page.goto("/no-such-page");
    expect(res!.status()).toBe(404);
    await expect(page.getByRole("heading", { level: 1 }).textContent()).resolves.toBe(
      "Page not found",
    );

    const post = await page.goto("/blog/not-published-yet");
    expect(post!.status()).toBe(404);
    await expect(page.getByRole("heading", { level: 1 }).textContent()).resolves.toBe(
      "Blog Post Not Found",
    );
    await expect(
      page
        .getByText(
          "Sorry, the blog post you're looking for hasn't been published yet or may have been moved.",
        )
        .isVisible(),
    ).resolves.toBe(true);
    await page.getByRole("link", { name: "Back to the blog" }).click();
    await page.waitForURL("**/blog");
    await expect(page.getByRole("heading", { level: 1 }).textContent()).resolves.toBe(
      "Latest posts",
    );
  });

  it("redirects the old /resources/blog/* links to the posts", async () => {
    const res = await fetch(`${ctx.baseUrl}/resources/blog/revwise-manifesto`, {
      redirect: "manual",
    });
    expect(res.status).toBe(301);
    expect(res.headers.get("location")).toBe("/blog/revwise-manifesto");
    const page = await ctx.newPage();
    await page.goto("/resources/blog/ai-sales");
    expect(new URL(page.url()).pathname).toBe("/blog/ai-sales");
  });

  it("caches hashed assets for a year, revalidates pages, and compresses both", async () => {
    const html = await fetch(`${ctx.baseUrl}/`, { headers: { "accept-encoding": "br" } });
    expect(html.headers.get("cache-control")).toBe("no-cache");
    expect(html.headers.get("content-encoding")).toBe("br");
    const body = await (await fetch(`${ctx.baseUrl}/`)).text();
    const asset = /<script data-entry="(\/assets\/[^"]+\.js)"/.exec(body)?.[1];
    expect(asset).toBeTruthy();
    const entry = await fetch(ctx.baseUrl + asset!, {
      headers: { "accept-encoding": "br, gzip" },
    });
    expect(entry.status).toBe(200);
    expect(entry.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
    // The entry is too small to gain from compression (512 bytes or less is sent as it is); the
    // islands runtime it loads is not.
    const runtime = /"(assets\/boot-[\w-]+\.js)"/.exec(await entry.text())?.[1];
    expect(runtime).toBeTruthy();
    const js = await fetch(`${ctx.baseUrl}/${runtime}`, {
      headers: { "accept-encoding": "br, gzip" },
    });
    expect(js.status).toBe(200);
    expect(js.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
    expect(js.headers.get("content-encoding")).toBe("br");
  });

  it("loads no router and no page code: only the start script naming the islands entry, allowed by its hash", async () => {
    const html = await (await fetch(`${ctx.baseUrl}/`)).text();
    expect(html).not.toContain("__reactRouterContext");
    // JSON-LD blocks are data, never run; the only script is the page's start script.
    const scripts = [...html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/g)].filter(
      ([, attrs]) => !attrs!.includes("application/ld+json"),
    );
    expect(scripts.map(([, attrs]) => attrs)).toEqual([
      expect.stringMatching(/^ data-entry="\/assets\/entry\.client-[\w-]+\.js"$/),
    ]);
    const hash = crypto.createHash("sha256").update(scripts[0]![2]!).digest("base64");
    const csp = (await fetch(`${ctx.baseUrl}/`)).headers.get("content-security-policy")!;
    const scriptSrc = /script-src ([^;]*)/.exec(csp)?.[1];
    expect(scriptSrc).toBe(`'self' 'sha256-${hash}'`);
  });

  it("navigates between prerendered pages and wakes the menu on first use, keeping focus", async () => {
    const page = await ctx.newPage();
    await page.goto("/");
    const products = page.getByRole("link", { name: "Products", exact: true });
    await products.focus();
    await page.locator('[data-island="desktop-nav"][data-hydrated]').waitFor({ state: "attached" });
    await expect(page.evaluate(() => document.activeElement?.textContent)).resolves.toBe(
      "Products",
    );
    await page.keyboard.press("Enter");
    await page.getByRole("link", { name: /^Listen Wise Capture/ }).waitFor();
    await page.keyboard.press("Escape");
    await page
      .getByRole("navigation", { name: "Main" })
      .getByRole("link", { name: "About Us" })
      .click();
    await page.waitForURL("**/company");
    await expect(
      page.getByRole("link", { name: "About Us" }).first().getAttribute("aria-current"),
    ).resolves.toBe("page");
  });

  it("on a phone, opens the bottom drawer with the header's items and closes it on a link click", async () => {
    const page = await ctx.newPage({ width: 390, height: 844, mobile: true });
    await page.goto("/");
    await expect(page.getByRole("navigation", { name: "Main" }).isVisible()).resolves.toBe(false);
    await page.getByRole("link", { name: "Open menu" }).click();
    const drawer = page.getByRole("dialog", { name: "Menu" });
    await drawer.waitFor();
    for (const item of [
      "Listen Wise",
      "Business Wise",
      "Role Wise",
      "Blog",
      "Integrations",
      "About Us",
      "Contact Us",
    ]) {
      await expect(
        drawer.getByRole("link", { name: item, exact: true }).isVisible(),
        item,
      ).resolves.toBe(true);
    }
    await expect(
      drawer.getByRole("link", { name: /Book Demo/ }).getAttribute("target"),
    ).resolves.toBe("_blank");
    await expect(drawer.getByRole("link", { name: "Request Access" }).isVisible()).resolves.toBe(
      true,
    );
    await drawer.getByRole("link", { name: "Contact Us" }).click();
    await page.waitForURL("**/contact");
    await drawer.waitFor({ state: "detached" });
  });
});
