// The newsletter as a subscriber lives it: signing up in the footer, then the emailed links
// opened in a browser with JavaScript off (as many mail apps open them): each page asks with one
// button, and the button does it. The pages pass axe.
import type { ParsedMail } from "mailparser";
import { expect, it } from "vitest";
import { axeViolations } from "../support/axe.ts";
import { describeInBrowser } from "../support/browser.ts";
import { toastText } from "../support/forms.ts";
import { addressOf, type TestSmtp, withTestSmtp } from "../support/smtp.ts";

let smtp: TestSmtp;

const linkTo = (mail: ParsedMail, path: string) =>
  new RegExp(`https?://\\S+${path}\\?token=[\\w.-]+`).exec(mail.text ?? "")![0];

describeInBrowser(
  "the newsletter's confirmation and unsubscribe pages",
  (ctx) => {
    const status = async (email: string) =>
      (
        await ctx.db.query<{ status: string }>(
          "SELECT status FROM public.newsletter_subscribers WHERE email = $1",
          [email],
        )
      )[0]?.status;

    it("confirms and unsubscribes with one button each, without JavaScript", async () => {
      const email = `reader-${Date.now().toString(36)}@example.com`;
      const site = await ctx.newPage();
      await site.goto("/blog");
      const form = site.getByRole("form", { name: "Newsletter" });
      await form.getByLabel("Email address").fill(email);
      await form.getByRole("button", { name: "Subscribe" }).click();
      await toastText(site, "Almost done").waitFor();
      expect(await status(email)).toBe("pending");

      const mail = await smtp.waitFor((m) => addressOf(m) === email);
      const page = await ctx.newPage({ javaScriptEnabled: false });
      await page.goto(linkTo(mail, "/newsletter/confirm"));
      await page
        .getByRole("heading", { level: 1, name: "Confirm your newsletter subscription" })
        .waitFor();
      expect(await status(email)).toBe("pending");
      await page.getByRole("button", { name: "Confirm my subscription" }).click();
      await page
        .getByRole("heading", { level: 1, name: "Your subscription is confirmed" })
        .waitFor();
      expect(await status(email)).toBe("subscribed");

      await page.goto(linkTo(mail, "/newsletter/unsubscribe"));
      await page.getByRole("button", { name: "Unsubscribe" }).click();
      await page.getByRole("heading", { level: 1, name: "You are unsubscribed" }).waitFor();
      expect(await status(email)).toBe("unsubscribed");
      await page.getByRole("link", { name: "Back to the Revwise website" }).click();
      expect(new URL(page.url()).pathname).toBe("/");
    });

    it("shows pages without accessibility violations, and a clear page for a broken link", async () => {
      const page = await ctx.newPage();
      const broken = await page.goto("/newsletter/unsubscribe?token=not-a-token");
      expect(broken!.status()).toBe(400);
      await page.getByRole("heading", { level: 1, name: "This link is not valid" }).waitFor();
      expect(await axeViolations(page)).toEqual([]);
      ctx.allowConsoleError(/status of 400/);
    });
  },
  withTestSmtp((s) => (smtp = s)),
);
