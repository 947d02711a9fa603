// In Chromium: what a visitor does to an island whose code cannot load (the network is down, or a
// deploy has removed the files an older page asks for) is not lost. A link the island would turn
// into a control is followed; a form sent or a button pressed gets an alert of the runtime's own,
// which goes once a later attempt works; and a later attempt loads the code again.
import type { Page } from "playwright-core";
import { expect, it } from "vitest";
import { axeViolations } from "../support/axe.ts";
import { CAPTCHA_LOAD_FAILED } from "../../app/forms/captcha.tsx";
import { describeInBrowser } from "../support/browser.ts";
import { toastText } from "../support/forms.ts";

const LOAD_FAILURE = "This part of the page could not load. Check your connection and try again.";

/**
 * Opens `path` with its islands runtime started, then cuts the page off from every script file of
 * the site while `path` is the page shown (the page a link leads to loads normally).
 */
async function offlineAt(page: Page, path: string) {
  await page.unrouteAll();
  await page.goto(path, { waitUntil: "networkidle" });
  // The runtime starts after the first paint, which a loaded machine can put past the network's
  // idle: it has started once it has recorded where the visitor landed.
  await page.waitForFunction(() => sessionStorage.getItem("revwise-lead-source") !== null);
  const state = { offline: true };
  await page.route("**/assets/*.js", (route) =>
    state.offline && new URL(page.url()).pathname === path ? route.abort() : route.continue(),
  );
  return state;
}

const loadFailure = (page: Page) =>
  page.getByRole("alert").filter({ hasText: LOAD_FAILURE, visible: true });

describeInBrowser("islands whose code cannot load", (ctx) => {
  const rows = (table: string, email: string) =>
    ctx.db.query(`SELECT * FROM public.${table} WHERE email = $1`, [email]);
  const allowFailedLoads = () => {
    ctx.allowConsoleError(/net::ERR_FAILED/);
    ctx.allowConsoleError(/could not load/);
  };

  it("follows the header's Request Access and the hero's Watch Demo to their pages", async () => {
    allowFailedLoads();
    const page = await ctx.newPage();
    await offlineAt(page, "/");
    await page.getByRole("banner").getByRole("link", { name: "Request Access" }).click();
    await page.waitForURL("**/request-access");
    await page.getByRole("heading", { level: 1, name: "Request Access" }).waitFor();

    await offlineAt(page, "/");
    await page.getByRole("main").getByRole("link", { name: "Watch Demo" }).click();
    await page.waitForURL("**/product/tour");
  });

  it("follows Request Access to its page when the island is live but its dialog's code cannot load", async () => {
    allowFailedLoads();
    const page = await ctx.newPage();
    // Only the dialog's own code cannot load, from the start: the focus that wakes the island
    // also fetches it ahead of its first use.
    await page.route("**/assets/request-access-dialog-*.js", (route) => route.abort());
    await page.goto("/", { waitUntil: "networkidle" });
    const link = page.getByRole("banner").getByRole("link", { name: "Request Access" });
    await link.focus(); // wakes the island
    await page
      .locator('[data-island="account-action"][data-hydrated]')
      .waitFor({ state: "attached" });
    await page.keyboard.press("Enter");
    await page.waitForURL("**/request-access");
  });

  it("Contact: says so when the form's code cannot load, keeps what was typed, and sends once on the retry", async () => {
    allowFailedLoads();
    const page = await ctx.newPage();
    const network = await offlineAt(page, "/contact");
    const form = page.getByRole("form", { name: "Contact form" });
    await form.getByLabel("Name").fill("Offline Olivia");
    await form.getByLabel("Email").fill("olivia@offline.example");
    await form.getByLabel("Phone").fill("+1 206 555 0150");
    await form.getByLabel("Message").fill("Written on a train.");
    await form.getByText("I'm not a robot", { exact: true }).click();
    await loadFailure(page).waitFor();
    // The alert is the runtime's own, outside every island.
    expect(await loadFailure(page).evaluate((el) => el.closest("[data-island]"))).toBeNull();
    expect(await axeViolations(page)).toEqual([]);
    // Pressing send does nothing else but say it again.
    await form.getByLabel("Name").press("Enter");
    await form.getByRole("button", { name: "Send message" }).click({ force: true });
    await loadFailure(page).waitFor();
    expect(await page.locator("[data-island=contact-form]").getAttribute("data-hydrated")).toBe(
      null,
    );

    network.offline = false;
    await form.getByText("I'm not a robot", { exact: true }).click();
    await loadFailure(page).waitFor({ state: "detached" });
    await page
      .locator("[data-island=contact-form] altcha-widget [data-state=verified]")
      .waitFor({ state: "attached", timeout: 45_000 });
    for (const [label, value] of [
      ["Name", "Offline Olivia"],
      ["Email", "olivia@offline.example"],
      ["Phone", "+1 206 555 0150"],
      ["Message", "Written on a train."],
    ])
      expect(await form.getByLabel(label!).inputValue(), label).toBe(value);
    await form.getByRole("button", { name: "Send message" }).click();
    await toastText(page, "Success!").waitFor();
    expect(await rows("contact_messages", "olivia@offline.example")).toHaveLength(1);
  });

  it("Newsletter: a sign-up sent while the code cannot load is not lost, and is stored once on the retry", async () => {
    allowFailedLoads();
    const page = await ctx.newPage();
    const network = await offlineAt(page, "/faq");
    const form = page.getByRole("form", { name: "Newsletter" });
    const field = form.getByLabel("Email address");
    await field.fill("retry-reader@example.com");
    await field.press("Enter");
    await loadFailure(page).waitFor();
    await form.getByRole("button", { name: "Subscribe" }).click();
    await loadFailure(page).waitFor();
    expect(await field.inputValue()).toBe("retry-reader@example.com");

    network.offline = false;
    await form.getByRole("button", { name: "Subscribe" }).click();
    await toastText(page, "Almost done").waitFor();
    await loadFailure(page).waitFor({ state: "detached" });
    expect(await rows("newsletter_subscribers", "retry-reader@example.com")).toHaveLength(1);
  });

  it("Newsletter: two sign-ups sent while the form's code is on its way send once", async () => {
    const page = await ctx.newPage();
    await page.goto("/faq", { waitUntil: "networkidle" });
    await page.waitForFunction(() => sessionStorage.getItem("revwise-lead-source") !== null);
    let arrive!: () => void;
    const arrived = new Promise<void>((resolve) => (arrive = resolve));
    await page.route("**/assets/*.js", async (route) => {
      await arrived;
      await route.continue();
    });
    const inserts: string[] = [];
    page.on("request", (request) => {
      if (request.method() === "POST" && request.url().includes("/newsletter_subscribers"))
        inserts.push(request.url());
    });
    const field = page.getByRole("form", { name: "Newsletter" }).getByLabel("Email address");
    await field.fill("twice-pressed@example.com");
    await field.press("Enter");
    await field.press("Enter");
    arrive(); // both submissions are replayed together, in one task
    await toastText(page, "Almost done").waitFor();
    // Both would have gone before the first answer came back.
    expect(inserts).toHaveLength(1);
    expect(await rows("newsletter_subscribers", "twice-pressed@example.com")).toHaveLength(1);
  });

  it("Newsletter: a live form whose client code cannot load says so, and the next try sends", async () => {
    allowFailedLoads();
    const page = await ctx.newPage();
    await page.goto("/faq", { waitUntil: "networkidle" });
    const form = page.getByRole("form", { name: "Newsletter" });
    const field = form.getByLabel("Email address");
    // Wakes the island, and the toaster with a first toast.
    await field.fill("x");
    await field.press("Enter");
    await toastText(page, "Invalid email").waitFor();
    let offline = true;
    await page.route("**/assets/*.js", (route) => (offline ? route.abort() : route.continue()));
    await field.fill("second-try@example.com");
    await field.press("Enter");
    await toastText(page, "Subscription failed").waitFor();

    offline = false;
    await field.fill("second-try@example.com");
    await field.press("Enter");
    await toastText(page, "Almost done").waitFor();
    expect(await rows("newsletter_subscribers", "second-try@example.com")).toHaveLength(1);
  });

  it("behaves as the page does without JavaScript when the runtime itself cannot load", async () => {
    ctx.allowConsoleError(/net::ERR_FAILED/);
    const page = await ctx.newPage();
    // Every script file of the site fails, the page's entry first: only the inline start runs.
    await page.route("**/assets/*.js", (route) => route.abort());
    await page.goto("/", { waitUntil: "networkidle" });
    await page.getByRole("banner").getByRole("link", { name: "Request Access" }).click();
    await page.waitForURL("**/request-access");

    await page.goto("/faq", { waitUntil: "networkidle" });
    const form = page.getByRole("form", { name: "Newsletter" });
    await form.getByLabel("Email address").fill("no-runtime@example.com");
    await form.getByRole("button", { name: "Subscribe" }).click();
    await page.waitForURL("**/javascript-required");
    expect(await rows("newsletter_subscribers", "no-runtime@example.com")).toEqual([]);
  });

  it("says so when the captcha's code cannot load, and loads it again at the next tick", async () => {
    ctx.allowConsoleError(/net::ERR_FAILED/);
    const page = await ctx.newPage();
    const network = { offline: true };
    await page.route("**/assets/altcha-*.js", (route) =>
      network.offline ? route.abort() : route.continue(),
    );
    await page.goto("/contact", { waitUntil: "networkidle" });
    const form = page.getByRole("form", { name: "Contact form" });
    const tick = form.getByRole("button", { name: "I'm not a robot" });
    await tick.click();
    await form.getByRole("alert").filter({ hasText: CAPTCHA_LOAD_FAILED }).waitFor();

    network.offline = false;
    await tick.click();
    await form.locator("altcha-widget").waitFor({ state: "attached" });
    await form.getByRole("alert").filter({ hasText: CAPTCHA_LOAD_FAILED }).waitFor({
      state: "detached",
    });
  });
});
