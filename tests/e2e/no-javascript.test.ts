// Forms with JavaScript off: every form posts (no field ever travels in a URL) and lands on the
// page that says the form needs JavaScript; nothing is stored.
import AxeBuilder from "@axe-core/playwright";
import type { Page } from "playwright-core";
import { expect, it } from "vitest";
import { describeInBrowser } from "../support/browser.ts";

describeInBrowser("forms without JavaScript", (ctx) => {
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

  it("every form of the built pages posts to the fallback", async () => {
    for (const route of ["/", "/auth", "/auth/reset-password", "/contact", "/request-demo"]) {
      const html = await (await fetch(ctx.baseUrl + route)).text();
      const forms = html.match(/<form\b[^>]*>/g) ?? [];
      expect(forms.length, route).toBeGreaterThan(0);
      for (const tag of forms) {
        expect(tag, route).toContain('method="post"');
        expect(tag, route).toContain('action="/forms/no-javascript"');
      }
    }
  });

  it("the page it lands on passes axe-core", async () => {
    const page = await ctx.newPage();
    await page.goto("/javascript-required", { waitUntil: "networkidle" });
    const result = await new AxeBuilder({ page })
      .withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"])
      .analyze();
    expect(result.violations.map((v) => v.id)).toEqual([]);
  });
});
