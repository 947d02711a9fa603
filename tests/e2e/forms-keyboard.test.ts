// In Chromium, the visitor forms by keyboard: the focus never drops to the page. A dialog gives it
// back to the control that opened it (WCAG 2.4.3) without moving the page; a submit button keeps
// it while it sends; and the lead forms' submit button, which looks disabled until the captcha is
// ticked, can still be reached and pressed, and then says what is missing.
import type { Locator, Page } from "playwright-core";
import { expect, it } from "vitest";
import { FUNCTIONS } from "../../common/functions.ts";
import { describeInBrowser } from "../support/browser.ts";
import { expectNewToast, solveCaptcha, toastText } from "../support/forms.ts";

const focused = (control: Locator) => control.evaluate((el) => el === document.activeElement);

/**
 * Presses the button `label` of `form` by keyboard, twice, while its request to `url` is held: it
 * reads `busy`, keeps the focus and ignores the second press (one request); once the toast `done`
 * shows, the focus is on `after` (the button itself by default).
 */
async function pressWhileSending(
  form: Locator,
  [label, busy]: [string, string],
  url: string,
  done: string,
  after = form.getByRole("button", { name: label }),
) {
  const page = form.page();
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  let requests = 0;
  await page.route(url, async (route) => {
    requests += 1;
    await released;
    await route.continue();
  });
  await form.getByRole("button", { name: label }).focus();
  await page.keyboard.press("Enter");
  const busyButton = form.getByRole("button", { name: busy });
  await busyButton.waitFor();
  expect(await focused(busyButton)).toBe(true);
  expect(await busyButton.getAttribute("aria-disabled")).toBe("true");
  await page.keyboard.press("Enter");
  release();
  await toastText(page, done).waitFor();
  await expect.poll(() => focused(after)).toBe(true);
  expect(requests).toBe(1);
}

/** The Contact page's form, every field filled in, for `name` at `email`. */
async function filledContact(page: Page, name: string, email: string) {
  await page.goto("/contact");
  const form = page.getByRole("form", { name: "Contact form" });
  const fields = { Name: name, Email: email, Phone: "+1 206 555 0177", Message: "By keyboard." };
  for (const [label, value] of Object.entries(fields)) await form.getByLabel(label).fill(value);
  return form;
}

/** Brings `control` to the middle of the screen at once (the page scrolls smoothly otherwise). */
const centre = (control: Locator) =>
  control.evaluate((el) => el.scrollIntoView({ block: "center", behavior: "instant" }));

describeInBrowser("the visitor forms by keyboard", (ctx) => {
  const rows = (table: string, email: string) =>
    ctx.db.query(`SELECT * FROM public.${table} WHERE email = $1`, [email]);

  it("gives the focus back to the link that opened Request Access, wherever it closes from, and the page stays where it was", async () => {
    const page = await ctx.newPage();
    await page.goto("/", { waitUntil: "networkidle" });
    // The closing call to action, far down the page.
    const opener = page.getByRole("main").getByRole("link", { name: "Request Access" }).last();
    await centre(opener);
    const scrolled = await page.evaluate(() => scrollY);
    expect(scrolled).toBeGreaterThan(1000);
    const dialog = page.getByRole("dialog", { name: "Request Access" });

    await opener.focus();
    await page.keyboard.press("Enter");
    await dialog.waitFor();
    await expect.poll(() => dialog.evaluate((d) => d.contains(document.activeElement))).toBe(true);
    await page.keyboard.press("Escape");
    await dialog.waitFor({ state: "detached" });
    await expect.poll(() => focused(opener)).toBe(true);
    expect(await page.evaluate(() => scrollY)).toBe(scrolled);

    await page.keyboard.press("Enter");
    await dialog.waitFor();
    await dialog.getByRole("button", { name: "Close" }).click();
    await dialog.waitFor({ state: "detached" });
    await expect.poll(() => focused(opener)).toBe(true);
    expect(await page.evaluate(() => scrollY)).toBe(scrolled);
  });

  it("gives the focus back to Watch Demo after the demo is sent, and keeps it on the button while it sends", async () => {
    const page = await ctx.newPage();
    await page.goto("/", { waitUntil: "networkidle" });
    const opener = page.getByRole("main").getByRole("link", { name: "Watch Demo" });
    await opener.focus();
    await page.keyboard.press("Enter");
    const dialog = page.getByRole("dialog", { name: "Watch the Revwise demo" });
    await dialog.waitFor();
    await dialog.getByLabel("Business email").fill("keyboard@northwind-analytics.example");
    const demo = ["Send me the demo", "Sending..."] as [string, string];
    await pressWhileSending(dialog, demo, "**/rest/v1/demo_requests*", "Demo Access Sent!", opener);
    expect(await dialog.count()).toBe(0);
    expect(await rows("demo_requests", "keyboard@northwind-analytics.example")).toHaveLength(1);
  });

  it("keeps the focus on Contact's and the newsletter's buttons while they send, and after", async () => {
    const page = await ctx.newPage();
    const form = await filledContact(page, "Kay Board", "kay@keys.example");
    await solveCaptcha(form);
    const contact = `**/functions/v1/${FUNCTIONS.contact}`;
    await pressWhileSending(form, ["Send message", "Sending..."], contact, "Success!");
    expect(await rows("contact_messages", "kay@keys.example")).toHaveLength(1);

    const newsletter = page.getByRole("form", { name: "Newsletter" });
    await newsletter.getByLabel("Email address").fill("kay@keys.example");
    const signUp = "**/rest/v1/newsletter_subscribers*";
    await pressWhileSending(newsletter, ["Subscribe", "Subscribing…"], signUp, "Almost done");
  });

  it("before the captcha is ticked, the submit button looks disabled yet takes the focus, and pressing it or Enter says the captcha is required", async () => {
    const page = await ctx.newPage();
    const form = await filledContact(page, "Nora Bot", "nora@bots.example");
    await form.getByLabel("Name").press("Enter");
    await toastText(page, "Captcha Required").waitFor();
    await toastText(page, "Please confirm you're not a robot before submitting.").waitFor();
    const send = form.getByRole("button", { name: "Send message" });
    expect(await send.getAttribute("aria-disabled")).toBe("true");
    expect(await send.evaluate((b) => getComputedStyle(b).opacity)).toBe("0.6");
    await send.focus();
    expect(await focused(send)).toBe(true);
    await expectNewToast(page, "Captcha Required", () => page.keyboard.press("Enter"));
    expect(await rows("contact_messages", "nora@bots.example")).toEqual([]);

    // In the Request Access dialog, with fields left empty: their messages and the toast.
    await page.getByRole("banner").getByRole("link", { name: "Request Access" }).click();
    const dialog = page.getByRole("dialog", { name: "Request Access" });
    await dialog.waitFor();
    await expectNewToast(page, "Captcha Required", () =>
      dialog.getByLabel("First name").press("Enter"),
    );
    await dialog.getByText("First name must be at least 2 characters").waitFor();
  });
});
