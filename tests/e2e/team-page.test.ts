// In a real browser against the real server: the team workspace at /team. Its prerendered HTML
// holds no lead and is noindex; a visitor without a session is asked to sign in, someone off the
// team is told so and the page asks for no data; an admin signs in through /auth (back to /team),
// sets up an authenticator app with a code computed from the shown secret, works the inbox
// (newest first, search, a lead's detail, status and note kept across a reload with who changed
// them, the search kept in the URL, CSV of the filter), resends a failed email, filters and exports the newsletter's
// subscribers, moves between the sections by keyboard, and signed in again with the password
// alone is asked for the app's code; an admin invites someone (who accepts) and resets a member's
// authenticator app; an admin adds, switches and deletes webhook endpoints and
// resends a delivery, which a member only reads; the analytics show a page's leads for a range;
// the inbox pages 50 at a time. axe on each state.
import { createClient } from "@supabase/supabase-js";
import type { Locator, Page } from "playwright-core";
import { beforeAll, expect, it } from "vitest";
import { stepAt, totpCode } from "../support/totp.ts";
import { mintApiKey } from "../../server/security/keys.ts";
import { addMember } from "../../server/team/members.ts";
import { workspaceTabs } from "../../app/content/team.ts";
import { TEST_JWT_SECRET } from "../support/app.ts";
import { emailTo, PASSWORD, uniqueEmail } from "../support/auth.ts";
import { axeViolations } from "../support/axe.ts";
import { describeInBrowser } from "../support/browser.ts";
import {
  expectCodeStepFocused,
  openEmailLink,
  openRecoveryLink,
  sendWrongAppCode,
} from "../support/browser-accounts.ts";
import { toastText } from "../support/forms.ts";
import { addressOf, type TestSmtp, withTestSmtp } from "../support/smtp.ts";
import { startWebhookReceiver } from "../support/webhook-receiver.ts";

let smtp: TestSmtp;
const domain = `team-${Date.now().toString(36)}.example`;
const bounced = `bounced@${domain}`;
const secret = new TextEncoder().encode(TEST_JWT_SECRET);

describeInBrowser(
  "team workspace",
  (ctx) => {
    const api = () => ({ url: ctx.baseUrl, serviceRoleKey: mintApiKey(secret, "service_role") });

    /** A confirmed account with a password, on the team with `role` (or not on it). */
    async function account(label: string, role?: "member" | "admin") {
      const email = uniqueEmail(label);
      const admin = createClient(ctx.baseUrl, api().serviceRoleKey, {
        auth: { persistSession: false, autoRefreshToken: false },
      }).auth.admin;
      const { error } = await admin.createUser({ email, password: PASSWORD, email_confirm: true });
      expect(error).toBeNull();
      if (role) await addMember(api(), email, role);
      return email;
    }

    /** supabase-js as the site's visitors use it (the anon key). */
    const visitor = () =>
      createClient(ctx.baseUrl, mintApiKey(secret, "anon"), { auth: { persistSession: false } });

    /** Every /rest/v1 request the page sends from now on. */
    function restRequests(page: Page): string[] {
      const seen: string[] = [];
      page.on("request", (r) => {
        if (new URL(r.url()).pathname.startsWith("/rest/v1/")) seen.push(r.url());
      });
      return seen;
    }

    /** The body of every save of a lead's work the page sends from now on. */
    function leadStateSaves(page: Page): Record<string, string>[] {
      const seen: Record<string, string>[] = [];
      page.on("request", (r) => {
        if (r.method() === "POST" && new URL(r.url()).pathname === "/rest/v1/lead_states")
          seen.push(r.postDataJSON() as Record<string, string>);
      });
      return seen;
    }

    /** From /team's prompt, through /auth, and back to /team signed in. */
    async function signInFromTeam(page: Page, email: string) {
      await page.goto("/team");
      await page
        .getByRole("region", { name: "Sign in to the team workspace" })
        .getByRole("link", { name: "Sign in" })
        .click();
      await page.waitForURL((url) => url.pathname === "/auth");
      const form = page.getByRole("form", { name: "Sign in" });
      await form.getByLabel("Email").fill(email);
      await form.getByLabel("Password").fill(PASSWORD);
      await form.getByRole("button", { name: "Sign in" }).click();
      await page.waitForURL((url) => url.pathname === "/team");
    }

    /**
     * Someone on the team with `role`, signed in from /team on a new page, who sets up an
     * authenticator app there (a code computed from the shown setup key): the workspace shows.
     */
    async function enrolledOnTeam(label: string, role: "member" | "admin") {
      const page = await ctx.newPage();
      const email = await account(label, role);
      await signInFromTeam(page, email);
      await page.getByRole("heading", { name: "Set up two-step verification" }).waitFor();
      await page.getByRole("button", { name: "Set up an authenticator app" }).click();
      const key = (await page.getByTestId("totp-secret").textContent())!.trim();
      // The set-up replaced the button: the focus is in it, not back on the page.
      await expect
        .poll(() =>
          page
            .getByTestId("totp-secret")
            .evaluate((e) => e.closest("[tabindex]") === document.activeElement),
        )
        .toBe(true);
      expect(key).toMatch(/^[A-Z2-7]{32}$/);
      expect(await axeViolations(page)).toEqual([]);
      const turnOn = page.getByRole("form", { name: "Turn on two-step verification" });
      await turnOn.getByLabel("6-digit code from your app").fill(totpCode(key, stepAt(Date.now())));
      await turnOn.getByRole("button", { name: "Verify and turn on" }).click();
      // Its recovery codes are shown once before the workspace (tests/e2e/recovery-codes.test.ts).
      const saved = page.getByRole("button", { name: "I've saved them" });
      await saved.click();
      await page.getByRole("tablist", { name: "Workspace sections" }).waitFor();
      // The workspace replaced the set-up in place: its panel has the focus.
      await expect
        .poll(() => page.getByRole("tabpanel").evaluate((e) => e === document.activeElement))
        .toBe(true);
      return { page, email, key };
    }

    beforeAll(async () => {
      // Three leads of three forms, an hour apart (so "newest first" has one answer).
      await ctx.db.query(
        `INSERT INTO public.contact_messages (name, email, phone, message, source, created_at)
         VALUES ('Ada Quinn', $1, '+1 206 555 0100', 'Pricing for 40 sellers?',
                 '{"page": "/contact", "referrer": "https://search.example/", "utm_campaign": "fall"}',
                 now() - interval '3 hours')`,
        [`ada@${domain}`],
      );
      await ctx.db.query(
        `INSERT INTO public.access_requests (first_name, last_name, email, company_name, company_size, department, created_at)
         VALUES ('Bo', 'Lind', $1, 'Lumen Freight', '51-200', 'Sales', now() - interval '2 hours')`,
        [`bo@${domain}`],
      );
      await ctx.db.query(
        `INSERT INTO public.demo_requests (email, created_at) VALUES ($1, now() - interval '1 hour')`,
        [`cy@${domain}`],
      );
    });

    it("prerenders /team as a noindex shell without lead data, outside the sitemap", async () => {
      const html = await (await fetch(`${ctx.baseUrl}/team`)).text();
      expect(html).toContain('<meta name="robots" content="noindex"/>');
      expect(html).toContain('data-island="team-workspace"');
      expect(html).not.toContain(domain);
      expect(html).not.toContain("Lumen Freight");
      const sitemap = await (await fetch(`${ctx.baseUrl}/sitemap.xml`)).text();
      expect(sitemap).not.toContain("/team");
    });

    it("asks a visitor without a session to sign in, and reads nothing", async () => {
      const page = await ctx.newPage();
      const rest = restRequests(page);
      await page.goto("/team");
      const prompt = page.getByRole("region", { name: "Sign in to the team workspace" });
      await prompt.waitFor();
      expect(await prompt.getByRole("link", { name: "Sign in" }).getAttribute("href")).toBe(
        "/auth?next=%2Fteam",
      );
      expect(await axeViolations(page)).toEqual([]);
      expect(rest).toEqual([]);
    });

    it("tells someone off the team so, and asks the server for no team data", async () => {
      const page = await ctx.newPage({ width: 390, height: 844, mobile: true });
      const rest = restRequests(page);
      const email = await account("outsider");
      await signInFromTeam(page, email);
      await page.getByRole("heading", { name: "You're not on the team" }).waitFor();
      await page.getByText(email).waitFor();
      expect(await axeViolations(page)).toEqual([]);
      expect(rest).toEqual([]);
      expect(await page.content()).not.toContain(domain);
    });

    it("has an admin set up the app's code, then work the inbox, the outbox and the sections", async () => {
      const { page, email, key } = await enrolledOnTeam("admin", "admin");

      // The inbox: every lead, newest first, with the exact count.
      const panel = page.getByRole("tabpanel");
      await panel.getByText("1–3 of 3 leads").waitFor();
      const leads = panel.getByRole("region", { name: "Leads, newest first" });
      expect(await leads.getByRole("rowheader").allTextContents()).toEqual([
        `cy@${domain}`,
        "Bo Lind",
        "Ada Quinn",
      ]);
      expect(await axeViolations(page)).toEqual([]);

      // Search across name, email and company; a comma in the text does not break the query.
      const search = panel.getByRole("search", { name: "Search name, email or company" });
      await search.getByLabel("Search name, email or company").fill("lumen, freight");
      await search.getByRole("button", { name: "Search" }).click();
      await panel.getByText("0 of 0 leads").waitFor();
      await search.getByLabel("Search name, email or company").fill("lumen");
      await search.getByRole("button", { name: "Search" }).click();
      await panel.getByText("1–1 of 1 lead", { exact: true }).waitFor();
      expect(await leads.getByRole("rowheader").allTextContents()).toEqual(["Bo Lind"]);

      // The lead's detail: every field, then a status and a note that a reload keeps.
      await leads.getByRole("link", { name: "Bo Lind" }).focus();
      await page.keyboard.press("Enter");
      // The detail replaced the inbox: its heading has the focus once the lead is loaded.
      const leadHeading = page.getByRole("heading", { level: 2, name: "Bo Lind" });
      await expect.poll(() => leadHeading.evaluate((e) => e === document.activeElement)).toBe(true);
      // The lead's id and the search it was found with are in the URL.
      expect(new URL(page.url()).hash).toMatch(/^#inbox\/lead\/[0-9a-f-]{36}\?q=lumen$/);
      await panel.getByText("Lumen Freight").first().waitFor();
      await panel.getByText("51-200").waitFor();
      // The address and phone are links that write and call.
      expect(await panel.getByRole("link", { name: `bo@${domain}` }).getAttribute("href")).toBe(
        `mailto:bo@${domain}`,
      );
      const followUp = panel.getByRole("form", { name: "Follow-up" });
      const saves = leadStateSaves(page);
      await followUp.getByLabel("Status").selectOption("contacted");
      await followUp.getByLabel("Owner").selectOption({ label: email });
      await followUp.getByLabel("Next step").fill("Send the pricing sheet");
      await followUp.getByLabel("Due date").fill("2026-12-03");
      await followUp.getByRole("button", { name: "Save" }).click();
      await toastText(page, "Lead saved").waitFor();
      await followUp.getByText(new RegExp(`^Last changed .* by ${email}\\.$`)).waitFor();
      const timeline = panel.getByRole("list", {
        name: "Notes, calls, emails and changes, newest first",
      });
      await timeline
        .getByText(
          `changed the status from New to Contacted; made ${email} the owner; set the next step “Send the pricing sheet”, due Dec 3, 2026`,
        )
        .waitFor();
      // A call logged and a note are added to the timeline, never overwriting each other.
      const add = panel.getByRole("form", { name: "Add to the timeline" });
      await add.getByLabel("What happened").selectOption("call");
      await add.getByLabel("Note").fill("Called Bo; wants a demo in December.");
      await add.getByRole("button", { name: "Add" }).click();
      await toastText(page, "Added to the timeline").waitFor();
      await timeline.getByText("Called Bo; wants a demo in December.").waitFor();
      await add.getByLabel("Note").fill("Prefers email after 3 pm.");
      await add.getByRole("button", { name: "Add" }).click();
      await timeline.getByText("Prefers email after 3 pm.").waitFor();
      expect(await timeline.getByRole("listitem").allTextContents()).toEqual([
        expect.stringMatching(
          new RegExp(`^${email} added a note · .*Prefers email after 3 pm\\.$`),
        ),
        expect.stringMatching(
          new RegExp(`^${email} logged a call · .*wants a demo in December\\.$`),
        ),
        expect.stringContaining("changed the status from New to Contacted"),
      ]);
      // Only the parts changed are sent (a part another member saved meanwhile stays theirs);
      // a Save with nothing changed sends nothing and says so.
      await followUp.getByLabel("Status").selectOption("qualified");
      await followUp.getByRole("button", { name: "Save" }).click();
      await timeline.getByText("changed the status from Contacted to Qualified").waitFor();
      await followUp.getByRole("button", { name: "Save" }).click();
      await toastText(page, "Nothing to save").waitFor();
      expect(saves.map(({ kind, lead_id, ...fields }) => [kind, lead_id, fields])).toEqual([
        [
          "request_access",
          expect.any(String),
          {
            status: "contacted",
            owner_id: expect.any(String),
            next_step: "Send the pricing sheet",
            due_on: "2026-12-03",
          },
        ],
        ["request_access", expect.any(String), { status: "qualified" }],
      ]);
      expect(await axeViolations(page)).toEqual([]);
      await page.reload();
      await page.getByRole("heading", { level: 2, name: "Bo Lind" }).waitFor();
      const kept = page.getByRole("form", { name: "Follow-up" });
      expect(await kept.getByLabel("Status").inputValue()).toBe("qualified");
      expect(await kept.getByLabel("Next step").inputValue()).toBe("Send the pricing sheet");
      expect(await kept.getByLabel("Due date").inputValue()).toBe("2026-12-03");

      // Back in the inbox, the search is still applied after the reload, and the CSV of a filter
      // holds exactly its rows.
      await page.getByRole("button", { name: "← Back to the inbox" }).click();
      await panel.getByText("1–1 of 1 lead", { exact: true }).waitFor();
      expect(new URL(page.url()).hash).toBe("#inbox?q=lumen");
      expect(await search.getByLabel("Search name, email or company").inputValue()).toBe("lumen");
      // The focus comes back to the inbox's heading, not to the top of the page.
      await expect
        .poll(() => page.evaluate(() => document.activeElement?.textContent))
        .toBe("Inbox");
      await search.getByLabel("Search name, email or company").fill("");
      await search.getByRole("button", { name: "Search" }).click();
      await panel.getByText("1–3 of 3 leads").waitFor();
      await panel.getByLabel("Status").selectOption("qualified");
      await panel.getByText("1–1 of 1 lead", { exact: true }).waitFor();
      const lines = await exportedCsv(page, "leads");
      expect(lines).toHaveLength(2);
      // One column per field, headed by the form's labels; the form and the status in words; no
      // JSON column, no internal id.
      expect(lines[0]).toBe(
        "Received,Form,Name,Email,Company,Phone,Message,Company size,Department,Position,Website,Status,Why it was lost,Owner,Next step,Due date,Page,Referrer,UTM source,UTM medium,UTM campaign",
      );
      expect(lines[1]).toMatch(
        new RegExp(
          `^[\\d-]+T[\\d:.]+\\+00:00,Request Access,Bo Lind,bo@${domain},Lumen Freight,,,51-200,Sales,,,Qualified,,${email},Send the pricing sheet,2026-12-03,,,,,$`,
        ),
      );

      // The outbox: an email the SMTP server refused is failed; Resend sends it.
      smtp.behave({
        rejectRecipient: (address) =>
          address === bounced ? { code: 550, message: "5.2.2 Mailbox full" } : undefined,
      });
      expect((await visitor().from("demo_requests").insert({ email: bounced })).error).toBeNull();
      await expect
        .poll(
          async () =>
            (
              await ctx.db.query<{ status: string }>(
                "SELECT status FROM public.emails WHERE to_address = $1",
                [bounced],
              )
            )[0]?.status,
          { timeout: 20_000 },
        )
        .toBe("failed");
      smtp.behave({});
      await page.getByRole("tab", { name: "Emails" }).click();
      expect(new URL(page.url()).hash).toBe("#emails");
      await panel.getByLabel("Status").selectOption("failed");
      const outbox = panel.getByRole("region", { name: "Emails, newest first" });
      await outbox.getByText(bounced).waitFor();
      await outbox.getByText(/Mailbox full/).waitFor();
      expect(await axeViolations(page)).toEqual([]);
      await outbox.getByRole("button", { name: new RegExp(`^Resend .* to ${bounced}$`) }).click();
      await toastText(page, "Email queued again").waitFor();
      await emailTo(smtp, bounced, "Your Revwise demo is ready");

      // Subscribers: a newsletter sign-up waits for its confirmation; the filter and its CSV.
      const reader = `reader@${domain}`;
      expect(
        (await visitor().from("newsletter_subscribers").insert({ email: reader })).error,
      ).toBeNull();
      await page.getByRole("tab", { name: "Subscribers" }).click();
      await panel.getByLabel("Status").selectOption("pending");
      const subscribers = panel.getByRole("region", { name: "Subscribers, newest first" });
      await subscribers
        .getByRole("row", { name: new RegExp(`^${reader} Pending confirmation`) })
        .waitFor();
      await panel.getByText("1–1 of 1 subscriber", { exact: true }).waitFor();
      const exported = await exportedCsv(page, "subscribers");
      expect(exported).toHaveLength(2);
      expect(exported[1]).toContain(reader);
      expect(exported[1]).toContain("pending");
      await panel.getByLabel("Status").selectOption("unsubscribed");
      await panel.getByText("No subscribers match this filter.").waitFor();

      // Keyboard: Tab reaches the selected tab; arrows, Home and End move and show the sections;
      // each shows its rows, and a reload keeps the section.
      await page.getByRole("tab", { name: "Emails" }).click();
      await page.getByRole("main").getByRole("button", { name: "Logout" }).focus();
      await page.keyboard.press("Tab");
      const focused = () =>
        page.evaluate(() =>
          document.activeElement?.getAttribute("role") === "tab"
            ? document.activeElement.textContent
            : null,
        );
      expect(await focused()).toBe("Emails");
      await page.keyboard.press("ArrowRight");
      expect(await focused()).toBe("Subscribers");
      await page.keyboard.press("End");
      expect(await focused()).toBe("Security");
      expect(new URL(page.url()).hash).toBe("#security");
      for (const tab of workspaceTabs.slice(1)) {
        await page.getByRole("tab", { name: tab.label }).click();
        expect(await page.getByRole("tab", { name: tab.label }).getAttribute("aria-selected")).toBe(
          "true",
        );
        await expect.poll(() => panel.getByText(/^Loading /).count()).toBe(0);
        await panel.getByRole("status").first().waitFor();
        expect(await panel.getByRole("alert").count()).toBe(0);
        expect(await axeViolations(page)).toEqual([]);
      }
      await page.keyboard.press("Home");
      // The Inbox tab counts the leads still new: "Inbox (2)".
      expect(await focused()).toMatch(/^Inbox \(\d+\)$/);
      await page.getByRole("tab", { name: "Webhooks" }).click();
      await page.reload();
      await page.getByRole("heading", { name: "Webhook endpoints" }).waitFor();
      // An admin may add endpoints; the form is there.
      await page.getByRole("form", { name: "Add an endpoint" }).waitFor();

      // Signed in again with the password alone (aal1): the workspace asks for the app's code.
      await page.getByRole("main").getByRole("button", { name: "Logout" }).click();
      await page.waitForURL((url) => url.pathname === "/");
      await page.goto("/auth");
      const form = page.getByRole("form", { name: "Sign in" });
      await form.getByLabel("Email").fill(email);
      await form.getByLabel("Password").fill(PASSWORD);
      await form.getByRole("button", { name: "Sign in" }).click();
      await page.getByRole("heading", { name: "Enter your verification code" }).waitFor();
      const rest = restRequests(page);
      await page.goto("/team");
      const step = page.getByRole("region", { name: "Enter your verification code" });
      await step.waitFor();
      expect(await axeViolations(page)).toEqual([]);
      expect(rest).toEqual([]);
      // The step replaced the page's check: its heading has the focus.
      await expectCodeStepFocused(step);
      ctx.allowConsoleError(/status of 422/);
      await sendWrongAppCode(
        step.getByRole("form", { name: "Verification code" }),
        "Verify and open the workspace",
      );
      // A code works once: the next step's code (the server accepts one step either side).
      await step
        .getByLabel("6-digit code from your app")
        .fill(totpCode(key, stepAt(Date.now()) + 1));
      await step.getByRole("button", { name: "Verify and open the workspace" }).click();
      await page.getByRole("tablist", { name: "Workspace sections" }).waitFor();
    }, 240_000); // the file's longest journey: past 120 s when the whole suite loads the machine

    it("shows an admin the security log, filtered, paged and exported as CSV; a member has no Security tab", async () => {
      const { page, email } = await enrolledOnTeam("security", "admin");
      // A refused sign-in for another address, from outside the browser.
      const stranger = uniqueEmail("security-stranger");
      await visitor().auth.signInWithPassword({ email: stranger, password: "Not-Right-7" });

      await page.getByRole("tab", { name: "Security" }).click();
      expect(new URL(page.url()).hash).toBe("#security");
      const panel = page.getByRole("tabpanel");
      await panel.getByRole("heading", { name: "Security log" }).waitFor();
      const table = panel.getByRole("table", { name: "Security events, newest first" });
      await table.waitFor();
      expect(await axeViolations(page)).toEqual([]);
      // The admin's own sign-in and two-step set-up are there, with the browser they used.
      const own = table.getByRole("row").filter({ hasText: email });
      await own.filter({ hasText: "Signed in" }).first().waitFor();
      await own.filter({ hasText: "Authenticator app: correct code" }).first().waitFor();
      expect(await own.first().textContent()).toContain("HeadlessChrome");
      const refused = table.getByRole("row").filter({ hasText: stranger });
      expect(await refused.getByRole("rowheader").textContent()).toBe("Sign-in refused");
      expect(await refused.textContent()).toContain(
        "Wrong password, or no account with this address",
      );

      // By kind of event, and by person: only what matches.
      await panel.getByLabel("Kind of event").selectOption({ label: "Two-step verification" });
      await expect
        .poll(async () => (await table.getByRole("rowheader").allTextContents()).sort()[0])
        .toMatch(/^Two-step/);
      expect(
        (await table.getByRole("rowheader").allTextContents()).every((t) =>
          t.startsWith("Two-step"),
        ),
      ).toBe(true);
      await panel.getByLabel("Kind of event").selectOption({ label: "All events" });
      const search = panel.getByRole("search", { name: "Search by email address or phone number" });
      await search.getByLabel("Search by email address or phone number").fill(stranger);
      await search.getByRole("button", { name: "Search" }).click();
      await panel.getByText("1–1 of 1 event", { exact: true }).waitFor();
      expect(await axeViolations(page)).toEqual([]);

      // The CSV holds what the filters select; the export itself is logged.
      const exported = await exportedCsv(page, "security-log");
      expect(exported[0]).toBe(
        "id,created_at,action,log_type,actor_id,actor,ip_address,user_agent,traits",
      );
      expect(exported.slice(1)).toHaveLength(1);
      expect(exported[1]).toContain("login_failed");
      await search.getByLabel("Search by email address or phone number").fill(email);
      await search.getByRole("button", { name: "Search" }).click();
      await panel.getByLabel("Kind of event").selectOption({ label: "Workspace settings" });
      const exportRow = table.getByRole("row").filter({ hasText: "Exported as CSV" });
      await exportRow.waitFor();
      expect(await exportRow.textContent()).toContain("Security log");

      // A member sees no Security tab, and a link to it opens the inbox.
      const { page: memberPage } = await enrolledOnTeam("security-member", "member");
      const tabs = memberPage.getByRole("tablist", { name: "Workspace sections" });
      // The Inbox tab may count the leads still new ("Inbox (3)").
      const labels = await tabs.getByRole("tab").allTextContents();
      expect(labels.map((l) => l.replace(/ \(\d+\)$/, ""))).toEqual(
        workspaceTabs.filter((t) => !("adminOnly" in t)).map((t) => t.label),
      );
      await memberPage.goto("/team#security");
      await memberPage.getByRole("heading", { name: "Inbox" }).waitFor();
      expect(await memberPage.getByRole("tab", { name: "Security" }).count()).toBe(0);
    });

    it("lets an admin set the team's time zone, which its emails say times in", async () => {
      const { page } = await enrolledOnTeam("team-zone", "admin");
      await page.getByRole("tab", { name: "Team" }).click();
      const panel = page.getByRole("tabpanel");
      const zone = panel.getByRole("form", { name: "Team time zone" });
      expect(await zone.getByLabel("Time zone", { exact: true }).inputValue()).toBe(
        "America/Los_Angeles",
      );
      await zone.getByLabel("Time zone", { exact: true }).selectOption("Europe/Berlin");
      await zone.getByRole("button", { name: "Save time zone" }).click();
      await toastText(page, "Time zone saved").waitFor();
      expect(await ctx.db.query("SELECT time_zone FROM public.team_settings")).toEqual([
        { time_zone: "Europe/Berlin" },
      ]);
      // Kept across a reload; set back for the other tests.
      await page.reload();
      const kept = page
        .getByRole("form", { name: "Team time zone" })
        .getByLabel("Time zone", { exact: true });
      expect(await kept.inputValue()).toBe("Europe/Berlin");
      await kept.selectOption("America/Los_Angeles");
      await page.getByRole("button", { name: "Save time zone" }).click();
      await toastText(page, "Time zone saved").waitFor();

      expect(await axeViolations(page)).toEqual([]);
    });

    it("lets an admin invite someone (who, as what and why, in the email) and reset a member's lost authenticator app", async () => {
      const { page, email: adminEmail } = await enrolledOnTeam("team-admin", "admin");
      const lost = await enrolledOnTeam("team-lost-phone", "member");
      await page.getByRole("tab", { name: "Team" }).click();
      expect(new URL(page.url()).hash).toBe("#team");
      const panel = page.getByRole("tabpanel");
      const table = panel.getByRole("region", { name: "Team members, by email address" });
      await table.waitFor();
      expect(await axeViolations(page)).toEqual([]);
      // The admin's own row offers no change: the team keeps an admin.
      const own = table.getByRole("row").filter({ hasText: `${adminEmail} (you)` });
      expect(await own.getByRole("button").count()).toBe(0);

      // An invitation: refused under the field until the address is one, then sent.
      const invitee = uniqueEmail("team-invitee");
      const note = "You'll take the Request Demo leads from the West Coast.";
      const form = panel.getByRole("form", { name: "Invite someone" });
      await form.getByLabel("Email address").fill("not an address");
      await form.getByRole("button", { name: "Send invitation" }).click();
      await form.getByText("Please enter a valid email address").waitFor();
      await form.getByLabel("Email address").fill(invitee);
      await form.getByLabel("Role").selectOption({ label: "Member" });
      await form.getByLabel("Why you're inviting them").fill(note);
      await form.getByRole("button", { name: "Send invitation" }).click();
      await toastText(page, "Invitation sent").waitFor();
      const row = table.getByRole("row").filter({ hasText: invitee });
      await row.filter({ hasText: "Invited, until" }).waitFor();
      expect(await row.textContent()).toContain(note);
      expect(await form.getByLabel("Email address").inputValue()).toBe("");
      expect(await axeViolations(page)).toEqual([]);

      // The email names the admin, the role and the note; its link opens the workspace, which
      // asks the new member for an authenticator app.
      const mail = await emailTo(
        smtp,
        invitee,
        `${adminEmail} invited you to the Revwise team workspace`,
      );
      expect(mail.text).toContain(`Their note: “${note}”`);
      expect(mail.text).toContain("valid for 7 days");
      const accepting = await ctx.newPage();
      await openEmailLink(accepting, mail, "Accept the invitation");
      await accepting.waitForURL((url) => url.pathname === "/team");
      await accepting.getByRole("heading", { name: "Set up two-step verification" }).waitFor();
      await page.reload();
      await table
        .getByRole("row")
        .filter({ hasText: invitee })
        .filter({ hasText: "Active" })
        .waitFor();

      // A member who lost their phone: reset, asked first; signed out, they set an app up anew.
      const lostRow = table.getByRole("row").filter({ hasText: lost.email });
      await lostRow.getByText("Authenticator app set up").waitFor();
      await lostRow.getByRole("button", { name: `Reset two-step: ${lost.email}` }).click();
      const keep = lostRow.getByRole("button", { name: "Keep it" });
      await expect.poll(() => keep.evaluate((e) => e === document.activeElement)).toBe(true);
      await lostRow.getByRole("button", { name: "Yes, reset" }).click();
      await toastText(page, "Two-step verification reset").waitFor();
      await lostRow.getByText("No authenticator app yet").waitFor();
      // Its ended session is refused (403) as the page checks it again.
      ctx.allowConsoleError(/status of 403/);
      await lost.page.reload();
      await lost.page.getByRole("region", { name: "Sign in to the team workspace" }).waitFor();
      await signInFromTeam(lost.page, lost.email);
      await lost.page.getByRole("heading", { name: "Set up two-step verification" }).waitFor();

      // Both changes are in the Security log, under the admin's address.
      const logged = await ctx.db.query<{ action: string }>(
        `SELECT payload->>'action' AS action FROM auth.audit_log_entries
         WHERE payload->>'actor_username' = $1 AND payload->'traits'->>'user_email' = ANY($2::text[])`,
        [adminEmail, [invitee, lost.email]],
      );
      expect(logged.map((r) => r.action).sort()).toEqual([
        "factor_deleted",
        "team_role_granted",
        "user_invited",
      ]);
    });

    it("lets an admin add an endpoint (its secret shown once), switch it, delete it and resend a delivery; a member only reads", async () => {
      const receiver = await startWebhookReceiver();
      try {
        const { page } = await enrolledOnTeam("hooks", "admin");
        await page.getByRole("tab", { name: "Webhooks" }).click();
        const panel = page.getByRole("tabpanel");
        const add = panel.getByRole("form", { name: "Add an endpoint" });
        const endpoints = panel.getByRole("region", { name: "Webhook endpoints, newest first" });

        // A URL the server refuses says why, under the field.
        ctx.allowConsoleError(/status of 400/);
        await add.getByLabel("URL").fill("http://crm.example.com/hook");
        await add.getByRole("button", { name: "Add endpoint" }).click();
        await add.getByLabel("URL").and(page.locator("[aria-invalid=true]")).waitFor();
        await add
          .getByText(
            "The URL must be an https:// URL (http:// only to localhost, 127.0.0.1 or ::1).",
          )
          .waitFor();

        for (const [url, description] of [
          [receiver.url, "Test receiver"],
          ["https://crm.example.com/revwise", "CRM"],
        ] as const) {
          await add.getByLabel("URL").fill(url);
          await add.getByLabel("Description").fill(description);
          await add.getByRole("button", { name: "Add endpoint" }).click();
          const shown = panel.getByRole("status").filter({ hasText: `Endpoint added: ${url}` });
          await shown.waitFor();
          expect(await shown.getByTestId("webhook-secret").textContent()).toMatch(/^whsec_/);
          expect(await axeViolations(page)).toEqual([]);
          await shown.getByRole("button", { name: "I've saved it" }).click();
          await endpoints.getByRole("rowheader", { name: url }).waitFor();
        }
        // Switched off and on, then deleted after a confirmation.
        const crm = "https://crm.example.com/revwise";
        // The keyboard keeps its place: on the switched button, on the question's safe answer, and
        // on the section's heading once the row is gone.
        const focused = (control: Locator) => control.evaluate((e) => e === document.activeElement);
        await endpoints.getByRole("button", { name: `Disable ${crm}` }).click();
        await toastText(page, "Endpoint disabled").waitFor();
        const enable = endpoints.getByRole("button", { name: `Enable ${crm}` });
        await expect.poll(() => focused(enable)).toBe(true);
        await enable.click();
        await toastText(page, "Endpoint enabled").waitFor();
        await endpoints.getByRole("button", { name: `Delete ${crm}` }).click();
        const question = endpoints.getByRole("group", { name: `Delete ${crm}?` });
        await expect
          .poll(() => focused(question.getByRole("button", { name: "Keep it" })))
          .toBe(true);
        await question.getByRole("button", { name: "Yes, delete" }).click();
        await toastText(page, "Endpoint deleted").waitFor();
        await expect
          .poll(() => focused(panel.getByRole("heading", { name: "Webhook endpoints" })))
          .toBe(true);
        await endpoints.getByRole("rowheader", { name: crm }).waitFor({ state: "detached" });

        // A lead stored once the endpoint takes events is delivered (the receiver refuses the
        // signature: its secret is its own), and the log offers to resend it.
        await expect
          .poll(
            async () =>
              (
                await ctx.db.query<{ live: boolean }>(
                  "SELECT events_from <= now() AS live FROM public.webhook_endpoints WHERE url = $1",
                  [receiver.url],
                )
              )[0]?.live,
            { timeout: 20_000 },
          )
          .toBe(true);
        const hooked = `hooked@${domain}`;
        expect((await visitor().from("demo_requests").insert({ email: hooked })).error).toBeNull();
        await expect.poll(() => receiver.forged, { timeout: 20_000 }).toBeGreaterThan(0);
        await page.reload();
        const log = panel.getByRole("region", { name: "Delivery log, newest first" });
        await log.getByText(/^401/).first().waitFor();
        expect(await axeViolations(page)).toEqual([]);
        await log
          .getByRole("button", { name: `Resend delivery to ${receiver.url}` })
          .first()
          .click();
        await toastText(page, "Delivery queued again").waitFor();

        // A member sees the endpoints and the log, and no way to change them.
        const member = (await enrolledOnTeam("reader", "member")).page;
        await member.getByRole("tab", { name: "Webhooks" }).click();
        const readOnly = member.getByRole("tabpanel");
        await readOnly.getByText("Only admins add, change or delete endpoints").waitFor();
        await readOnly.getByRole("rowheader", { name: receiver.url }).first().waitFor();
        await readOnly
          .getByRole("region", { name: "Delivery log, newest first" })
          .getByRole("rowheader", { name: receiver.url })
          .first()
          .waitFor();
        expect(await readOnly.getByRole("form", { name: "Add an endpoint" }).count()).toBe(0);
        expect(
          await readOnly.getByRole("button", { name: /^(Resend|Disable|Enable|Delete) / }).count(),
        ).toBe(0);
      } finally {
        await receiver.stop();
      }
    });

    it("shows page statistics for a range, as a table and a chart, and the visitors' sources", async () => {
      // Two of today's visitors from a newsletter campaign (one sent a form), one from a search.
      // (The test's browser is a robot to the counter: its own views are not counted.)
      await ctx.db.query(
        `INSERT INTO analytics.visit_sources (day, visitor, referrer, source, medium, campaign, views, converted)
         VALUES (current_date, '\\x01', '', 'newsletter', 'email', 'autumn', 3, true),
                (current_date, '\\x02', '', 'newsletter', 'email', 'autumn', 1, false),
                (current_date, '\\x03', 'google.com', '', '', '', 2, false)`,
      );
      const { page } = await enrolledOnTeam("numbers", "member");
      await page.getByRole("tab", { name: "Analytics" }).click();
      const panel = page.getByRole("tabpanel");
      // The seeded contact message came from /contact today: one lead on that page.
      const pages = panel.getByRole("region", { name: "Pages by views over the range" });
      const contact = pages.getByRole("row", { name: /^\/contact / });
      await contact.waitFor();
      expect(await contact.getByRole("cell").allTextContents()).toEqual(["0", "0", "1", "–"]);
      await panel.getByRole("img", { name: "Views and leads per day" }).waitFor();
      const sources = panel.getByRole("region", { name: "Sources by visitors over the range" });
      expect(
        await sources
          .getByRole("row", { name: /^No referring site / })
          .getByRole("cell")
          .allTextContents(),
      ).toEqual(["newsletter / email / autumn", "4", "2", "1", "50.0 %"]);
      expect(
        await sources
          .getByRole("row", { name: /^google\.com / })
          .getByRole("cell")
          .allTextContents(),
      ).toEqual(["–", "2", "1", "0", "0.0 %"]);
      expect(await axeViolations(page)).toEqual([]);
      // A range without the lead's day has no row for it; a reversed range is refused in place.
      await panel.getByLabel("To", { exact: true }).fill("2020-01-31");
      await panel
        .getByText(
          "The From date is after the To date. Choose a From date on or before the To date.",
        )
        .waitFor();
      await panel.getByLabel("From", { exact: true }).fill("2020-01-01");
      await pages.waitFor({ state: "detached" });
      await panel.getByText("No page views counted in this range.").waitFor();
    });

    it("keeps long visitor text inside the page: the lead's detail on a phone, every table's columns on a laptop", async () => {
      const long = `long-${Date.now().toString(36)}@${domain}`;
      const name = `Ŀong${"N".repeat(96)}`;
      await ctx.db.query(
        `INSERT INTO public.contact_messages (name, email, phone, message, source)
         VALUES ($1, $2, '+1 206 555 0100', $3, '{"page": "/contact"}')`,
        [name, long, "x".repeat(5000)],
      );
      await ctx.db.query(
        `INSERT INTO public.demo_form_requests (name, email, phone, company, position, website)
         VALUES ('Wide Web', $1, '+1 206 555 0101', 'Wide Co', 'Buyer', $2)`,
        [`web-${long}`, `https://${"w".repeat(300)}.example/`],
      );
      await ctx.db.query(
        `INSERT INTO public.webhook_endpoints (url, secret, description, enabled)
         VALUES ($1, 'whsec_MDEyMzQ1Njc4OWFiY2RlZg==', 'Long', false)`,
        [`https://hooks.example/${"u".repeat(300)}`],
      );
      const { page } = await enrolledOnTeam("wide", "admin");
      /** Whether the page is no wider than its window, and `control` is inside the window. */
      const fits = async (control: Locator) => {
        const [scroll, width] = await page.evaluate(() => [
          document.documentElement.scrollWidth,
          window.innerWidth,
        ]);
        const box = (await control.boundingBox())!;
        return scroll <= width && box.x >= 0 && box.x + box.width <= width;
      };
      const panel = page.getByRole("tabpanel");
      const search = panel.getByRole("search", { name: "Search name, email or company" });
      await search.getByLabel("Search name, email or company").fill(long);
      await search.getByRole("button", { name: "Search" }).click();
      const leads = panel.getByRole("region", { name: "Leads, newest first" });
      await leads.getByRole("link", { name }).waitFor();
      // The lead's name is isolated from the text around it (a right-to-left name stays whole).
      expect(await leads.locator("bdi", { hasText: name }).count()).toBe(1);
      expect(await fits(leads.getByRole("columnheader", { name: "Received" }))).toBe(true);

      // On a phone the inbox is one card per lead, the long name inside its card.
      await page.setViewportSize({ width: 390, height: 844 });
      const cards = panel.getByRole("list", { name: "Leads, newest first" });
      await cards.getByRole("link", { name }).waitFor();
      expect(await fits(cards.getByRole("link", { name }))).toBe(true);
      for (const lead of [name, "Wide Web"]) {
        await cards.getByRole("link", { name: lead }).click();
        await page.getByRole("heading", { level: 3, name: "What they sent" }).waitFor();
        expect(await fits(page.getByRole("heading", { level: 3, name: "What they sent" }))).toBe(
          true,
        );
        await page.getByRole("button", { name: "← Back to the inbox" }).click();
      }

      await page.setViewportSize({ width: 1280, height: 900 });
      await page.getByRole("tab", { name: "Webhooks" }).click();
      const hook = `https://hooks.example/${"u".repeat(300)}`;
      const enable = panel.getByRole("button", { name: `Enable ${hook}` });
      await enable.waitFor();
      expect(await fits(enable)).toBe(true);

      // The focused tab panel shows its keyboard focus.
      await page.getByRole("tab", { name: "Webhooks" }).focus();
      await page.keyboard.press("Tab");
      expect(
        await panel.evaluate(
          (e) => e === document.activeElement && getComputedStyle(e).outlineStyle,
        ),
      ).toBe("solid");
    });

    it("drops the workspace when signed out in another tab or everywhere, and logs out once on a double click", async () => {
      const { page } = await enrolledOnTeam("leaves", "member");
      const other = await page.context().newPage();
      await other.goto("/team");
      await other.getByRole("tablist", { name: "Workspace sections" }).waitFor();
      const logouts: string[] = [];
      other.on("request", (r) => {
        if (new URL(r.url()).pathname === "/auth/v1/logout") logouts.push(r.url());
      });
      await other.getByRole("main").getByRole("button", { name: "Logout" }).dblclick();
      await other.waitForURL((url) => url.pathname === "/");
      await toastText(other, "Logged out successfully").waitFor();
      expect(logouts).toHaveLength(1);
      expect(await toastText(other, "Logged out successfully").count()).toBe(1);

      // The first tab, still open on the workspace, shows the sign-in prompt and no lead.
      const prompt = page.getByRole("region", { name: "Sign in to the team workspace" });
      await prompt.waitFor();
      expect(await page.getByRole("tablist").count()).toBe(0);
      expect(await page.getByText("Signed in as").count()).toBe(0);

      // Signed out everywhere from elsewhere: the next refused read brings the prompt back.
      const again = await enrolledOnTeam("revoked", "member");
      const token = await again.page.evaluate(
        () =>
          (
            JSON.parse(
              Object.entries(localStorage).find(([k]) => k.endsWith("-auth-token"))![1],
            ) as { access_token: string }
          ).access_token,
      );
      const out = await fetch(`${ctx.baseUrl}/auth/v1/logout?scope=global`, {
        method: "POST",
        headers: { apikey: mintApiKey(secret, "anon"), authorization: `Bearer ${token}` },
      });
      expect(out.status).toBe(204);
      ctx.allowConsoleError(/status of 40[13]/);
      await again.page.getByRole("tab", { name: "Emails" }).click();
      await again.page.getByRole("region", { name: "Sign in to the team workspace" }).waitFor();
      expect(await again.page.getByRole("tablist").count()).toBe(0);
    });

    it("says in words that the connection failed, in its panels and its toasts, once the server is gone", async () => {
      const { page } = await enrolledOnTeam("offline", "member");
      // The toaster's code arrives once the workspace is live, before any toast asks for it.
      await page.waitForFunction(() =>
        performance.getEntriesByType("resource").some((e) => /\/toaster-[\w-]+\.js$/.test(e.name)),
      );
      await page.context().route("**/*", (route) => route.abort("connectionrefused"));
      ctx.allowConsoleError(/Failed to load resource|ERR_CONNECTION_REFUSED|Failed to fetch/);
      const connection =
        "The connection to Revwise failed. Check your internet connection and try again.";
      await page.getByRole("tab", { name: "Emails" }).click();
      await page
        .getByRole("tabpanel")
        .getByRole("alert")
        .filter({ hasText: `Couldn't load emails: ${connection}` })
        .waitFor();
      await page.getByRole("tab", { name: "Subscribers" }).click();
      await page.getByRole("tabpanel").getByRole("button", { name: "Export CSV" }).waitFor();
      await page.getByRole("tabpanel").getByRole("button", { name: "Export CSV" }).click();
      await toastText(page, connection).waitFor();
      await page.getByRole("main").getByRole("button", { name: "Logout" }).click();
      await toastText(page, "Failed to log out").waitFor();
    });

    it("recovers a member's forgotten password: the app's code first, then the new password", async () => {
      const enrolled = await enrolledOnTeam("recovers", "member");
      const { email, key } = enrolled;
      // The new password signs out every other session, the workspace's tab among them, whose
      // next reads would then be refused: here the member has only the recovery link open.
      await enrolled.page.close();
      const page = await ctx.newPage();
      await openRecoveryLink(page, smtp, email);
      // The recovery session is aal1: the server refuses a new password until the app's code.
      const code = page.getByRole("form", { name: "Verification code" });
      await code.waitFor();
      expect(await page.getByRole("form", { name: "Choose a new password" }).count()).toBe(0);
      expect(await axeViolations(page)).toEqual([]);
      // The step replaced the instructions: its heading has the focus.
      await expectCodeStepFocused(page);
      ctx.allowConsoleError(/status of 422/);
      await sendWrongAppCode(code, "Continue");
      await code
        .getByLabel("6-digit code from your app")
        .fill(totpCode(key, stepAt(Date.now()) + 1));
      await code.getByRole("button", { name: "Continue" }).click();

      const reset = page.getByRole("form", { name: "Choose a new password" });
      // The password form replaced the code step: its first field has the focus.
      await expect
        .poll(() =>
          reset
            .getByLabel("New password", { exact: true })
            .evaluate((f) => f === document.activeElement),
        )
        .toBe(true);
      await reset.getByLabel("New password", { exact: true }).fill("A-Brand-New-Password-7");
      await reset.getByLabel("Confirm new password").fill("A-Brand-New-Password-7");
      await reset.getByRole("button", { name: "Save new password" }).click();
      await page.waitForURL((url) => url.pathname === "/");
      await toastText(page, "Password updated").waitFor();
      const signedIn = await visitor().auth.signInWithPassword({
        email,
        password: "A-Brand-New-Password-7",
      });
      expect(signedIn.error).toBeNull();
    });

    it("has a member take leads as their own, due ones first, lose one with its reason and find junk again", async () => {
      const { page, email } = await enrolledOnTeam("owner", "member");
      const own = `own-${Date.now().toString(36)}.example`;
      for (const [name, hours] of [
        ["Eli Moss", 3],
        ["Fay Nord", 2],
        ["Gus Park", 1],
      ] as const)
        await ctx.db.query(
          `INSERT INTO public.contact_messages (name, email, phone, message, created_at)
           VALUES ($1, $2, '+1 (206) 555-0199', 'Hello', now() - make_interval(hours => $3))`,
          [name, `${name.split(" ")[0]!.toLowerCase()}@${own}`, hours],
        );
      await page.reload();
      const panel = page.getByRole("tabpanel");
      const search = panel.getByRole("search", { name: "Search name, email or company" });
      await search.getByLabel("Search name, email or company").fill(own);
      await search.getByRole("button", { name: "Search" }).click();
      await panel.getByText("1–3 of 3 leads").waitFor();
      const leads = panel.getByRole("region", { name: "Leads, newest first" });
      const followUp = panel.getByRole("form", { name: "Follow-up" });
      const back = () => page.getByRole("button", { name: "← Back to the inbox" }).click();

      // The oldest lead: mine, with a next step due yesterday (overdue); its phone is a tel: link.
      await leads.getByRole("link", { name: "Eli Moss" }).click();
      expect(
        await panel.getByRole("link", { name: "+1 (206) 555-0199" }).getAttribute("href"),
      ).toBe("tel:+12065550199");
      const yesterday = new Date(Date.now() - 86_400_000).toLocaleDateString("en-CA");
      await followUp.getByLabel("Owner").selectOption({ label: email });
      await followUp.getByLabel("Next step").fill("Call back");
      await followUp.getByRole("button", { name: "Save" }).click();
      // A next step needs its due date: the browser asks for it, nothing is sent.
      expect(
        await followUp
          .getByLabel("Due date")
          .evaluate((e: HTMLInputElement) => e.validity.valueMissing),
      ).toBe(true);
      await followUp.getByLabel("Due date").fill(yesterday);
      await followUp.getByRole("button", { name: "Save" }).click();
      await toastText(page, "Lead saved").waitFor();
      await back();

      // "My leads": the member's own, the overdue one marked so.
      await panel.getByLabel("Owner").selectOption({ label: "My leads" });
      await panel.getByText("1–1 of 1 lead", { exact: true }).waitFor();
      expect(await leads.getByRole("rowheader").allTextContents()).toEqual(["Eli Moss"]);
      await leads.getByText("(overdue)").waitFor();
      expect(new URL(page.url()).hash).toMatch(/[?&]owner=[0-9a-f-]{36}/);
      await panel.getByLabel("Owner").selectOption({ label: "Anyone" });
      await panel.getByText("1–3 of 3 leads").waitFor();

      // Lost needs its reason, said in the timeline.
      await leads.getByRole("link", { name: "Fay Nord" }).click();
      await followUp.getByLabel("Status").selectOption("lost");
      await followUp.getByLabel("Why it was lost").fill("Chose another tool");
      await followUp.getByRole("button", { name: "Save" }).click();
      await panel
        .getByRole("list", { name: "Notes, calls, emails and changes, newest first" })
        .getByText("changed the status from New to Lost: Chose another tool")
        .waitFor();
      expect(await axeViolations(page)).toEqual([]);
      await back();

      // Junk leaves the inbox; the status filter finds it again.
      await leads.getByRole("link", { name: "Gus Park" }).click();
      await followUp.getByLabel("Status").selectOption("junk");
      await followUp.getByRole("button", { name: "Save" }).click();
      await panel.getByText("changed the status from New to Junk").waitFor();
      await back();
      await panel.getByText("1–2 of 2 leads").waitFor();
      expect(await leads.getByRole("rowheader").allTextContents()).toEqual([
        "Fay Nord",
        "Eli Moss",
      ]);
      await panel.getByLabel("Status").selectOption("junk");
      await panel.getByText("1–1 of 1 lead", { exact: true }).waitFor();
      expect(await leads.getByRole("rowheader").allTextContents()).toEqual(["Gus Park"]);
      expect(await axeViolations(page)).toEqual([]);
    });

    it("groups a person's entries under their address, and walks the inbox lead by lead", async () => {
      const { page } = await enrolledOnTeam("people", "member");
      const group = `group-${Date.now().toString(36)}.example`;
      const address = `hal@${group}`;
      // The visitor typed the address in capitals once: still one person.
      expect(
        (
          await visitor()
            .from("demo_requests")
            .insert({ email: `HAL@${group.toUpperCase()}` })
        ).error,
      ).toBeNull();
      await ctx.db.query(
        `INSERT INTO public.contact_messages (name, email, phone, message, created_at)
         VALUES ('Hal Berg', $1, '+1 206 555 0111', 'Pricing?', now() - interval '1 hour'),
                ('Ivy Lund', $2, '+1 206 555 0112', 'Hello', now() - interval '2 hours')`,
        [address, `ivy@${group}`],
      );
      await page.reload();
      await page.getByRole("tab", { name: "People" }).click();
      const panel = page.getByRole("tabpanel");
      const search = panel.getByRole("search", { name: "Search by email address" });
      await search.getByLabel("Search by email address").fill(group);
      await search.getByRole("button", { name: "Search" }).click();
      await panel.getByText("1–2 of 2 people").waitFor();
      const people = panel.getByRole("region", { name: "People, latest activity first" });
      await people
        .getByRole("row", { name: new RegExp(`^Hal Berg ${address} – 2 Watch Demo`) })
        .waitFor();
      expect(await axeViolations(page)).toEqual([]);

      // A person opens their latest entry, which lists the other.
      await people.getByRole("link", { name: "Hal Berg" }).click();
      await panel.getByRole("heading", { level: 2, name: address }).waitFor();
      const others = panel.getByRole("region", { name: "Other entries from this person" });
      await others.getByRole("link", { name: "Contact" }).click();
      await panel.getByRole("heading", { level: 2, name: "Hal Berg" }).waitFor();
      await others.getByRole("link", { name: "Watch Demo" }).waitFor();

      // Previous and next walk the inbox's list (here its search) by the time leads arrived.
      await page.goto(`/team#inbox?q=${group}`);
      await panel.getByText("1–3 of 3 leads").waitFor();
      await panel.getByRole("link", { name: address }).click();
      const nav = panel.getByRole("navigation", { name: "Leads" });
      await nav.getByRole("link", { name: "Next lead →" }).click();
      await panel.getByRole("heading", { level: 2, name: "Hal Berg" }).waitFor();
      await nav.getByRole("link", { name: "Next lead →" }).click();
      await panel.getByRole("heading", { level: 2, name: "Ivy Lund" }).waitFor();
      // The oldest has no next; its previous goes back up.
      expect(await nav.getByRole("link", { name: "Next lead →" }).count()).toBe(0);
      await nav.getByRole("link", { name: "← Previous lead" }).click();
      await panel.getByRole("heading", { level: 2, name: "Hal Berg" }).waitFor();
      expect(new URL(page.url()).hash).toMatch(
        new RegExp(`^#inbox/lead/[0-9a-f-]{36}\\?q=${group}$`),
      );

      // A lead that arrives while the inbox is open is announced without a reload; the Inbox tab
      // and the page's title count the leads still new.
      await page.getByRole("button", { name: "← Back to the inbox" }).click();
      await panel.getByText("1–3 of 3 leads").waitFor();
      await expect.poll(() => page.title()).toMatch(/^\(\d+\) /);
      await page.getByRole("tab", { name: /^Inbox \(\d+\)$/ }).waitFor();
      expect(
        (
          await visitor()
            .from("demo_requests")
            .insert({ email: `jo@${group}` })
        ).error,
      ).toBeNull();
      const bar = panel.getByRole("status").filter({ hasText: "1 new lead arrived." });
      await bar.waitFor({ timeout: 30_000 });
      expect(await axeViolations(page)).toEqual([]);
      await bar.getByRole("button", { name: "Show them" }).click();
      await panel.getByText("1–4 of 4 leads").waitFor();
      await panel.getByRole("link", { name: `jo@${group}` }).waitFor();
      expect(await bar.count()).toBe(0);
    });

    it("pages the inbox 50 at a time with the count of what the filters select", async () => {
      const { page } = await enrolledOnTeam("pages", "member");
      await ctx.db.query(
        `INSERT INTO public.newsletter_subscribers (email, created_at, status, confirmed_at)
         SELECT 'reader' || n || '@pages.example', now() - n * interval '1 minute', 'subscribed', now()
         FROM generate_series(1, 57) AS n`,
      );
      await page.reload();
      const panel = page.getByRole("tabpanel");
      await panel.getByLabel("Form").selectOption("newsletter");
      const search = panel.getByRole("search", { name: "Search name, email or company" });
      await search.getByLabel("Search name, email or company").fill("@pages.example");
      await search.getByRole("button", { name: "Search" }).click();
      await panel.getByText("1–50 of 57 leads").waitFor();
      const leads = panel.getByRole("region", { name: "Leads, newest first" });
      expect(await leads.getByRole("rowheader").count()).toBe(50);
      await leads.getByRole("rowheader", { name: "reader1@pages.example" }).waitFor();
      await panel.getByRole("button", { name: "Next page" }).click();
      await panel.getByText("51–57 of 57 leads").waitFor();
      expect(await leads.getByRole("rowheader").allTextContents()).toEqual(
        [51, 52, 53, 54, 55, 56, 57].map((n) => `reader${n}@pages.example`),
      );
      // Unavailable on the last page, and still holding the focus the click gave it.
      const next = panel.getByRole("button", { name: "Next page" });
      expect(await next.getAttribute("aria-disabled")).toBe("true");
      expect(await next.evaluate((e) => e === document.activeElement)).toBe(true);
      await panel.getByRole("button", { name: "Previous page" }).click();
      await panel.getByText("1–50 of 57 leads").waitFor();

      // One lead is one lead; a backwards range says so instead of "no leads".
      await search.getByLabel("Search name, email or company").fill("reader57@pages.example");
      await search.getByRole("button", { name: "Search" }).click();
      await panel.getByText("1–1 of 1 lead", { exact: true }).waitFor();
      await panel.getByLabel("From").fill("2030-01-02");
      await panel.getByLabel("To").fill("2030-01-01");
      await panel
        .getByRole("alert")
        .filter({ hasText: "The From date is after the To date." })
        .waitFor();
    });

    it("has a member compose an issue, preview it at 390 and 1280 px, test it, send it; the archive shows it and a reader leaves from it", async () => {
      const readers = [`reader1@${domain}`, `reader2@${domain}`];
      for (const email of readers)
        await ctx.db.query(
          "INSERT INTO public.newsletter_subscribers (email, status, confirmed_at) VALUES ($1, 'subscribed', now())",
          [email],
        );
      const { page, email } = await enrolledOnTeam("nl-writer", "member");
      await page.getByRole("tab", { name: "Newsletter" }).click();
      const panel = page.getByRole("tabpanel");
      await panel.getByRole("button", { name: "New issue" }).click();
      const subject = `Field notes ${Date.now().toString(36)}`;
      await panel.getByLabel("Subject").fill(subject);
      await panel
        .getByLabel("Text (Markdown)")
        .fill("## This month\n\nCalls are **summarised** in a minute.\n\n- Notes\n- Next steps");
      await panel.getByRole("button", { name: "Save draft" }).click();
      await toastText(page, "Draft saved").waitFor();

      // The preview is the email itself, on a phone's width and on a desktop's.
      await panel.getByRole("button", { name: "Preview" }).click();
      const phone = panel.frameLocator('iframe[title="The email at 390 px"]');
      await phone.getByText("summarised").waitFor();
      expect((await panel.locator("iframe").boundingBox())!.width).toBe(390);
      await phone.getByRole("link", { name: "Unsubscribe from the Revwise newsletter" }).waitFor();
      expect(await axeViolations(page)).toEqual([]);
      await panel.getByRole("button", { name: "Desktop, 1280 px" }).click();
      await panel
        .frameLocator('iframe[title="The email at 1280 px"]')
        .getByText("summarised")
        .waitFor();
      expect((await panel.locator("iframe").boundingBox())!.width).toBe(1280);

      await panel.getByRole("button", { name: "Send a test to me" }).click();
      await toastText(page, "Test sent").waitFor();
      await smtp.waitFor((m) => addressOf(m) === email && m.subject === `[Test] ${subject}`);
      expect(smtp.messages.filter((m) => readers.includes(addressOf(m)))).toEqual([]);

      // Every subscribed address receives it: these two and those of the tests before.
      const [{ n }] = (await ctx.db.query<{ n: number }>(
        "SELECT count(*)::int AS n FROM public.newsletter_subscribers WHERE status = 'subscribed'",
      )) as [{ n: number }];
      await panel.getByRole("button", { name: "Send now…" }).click();
      await panel.getByRole("button", { name: "Yes, send it now" }).click();
      await toastText(page, "Sending").waitFor();
      const copies = await Promise.all(
        readers.map((to) => smtp.waitFor((m) => addressOf(m) === to && m.subject === subject)),
      );
      // The list's figures (sent, delivered, failed, unsubscribed), read again on each visit.
      await panel.getByRole("button", { name: "Back to the issues" }).click();
      const figures = async () => {
        await page.getByRole("tab", { name: "Subscribers" }).click();
        await page.getByRole("tab", { name: "Newsletter" }).click();
        const row = panel.getByRole("row").filter({ hasText: subject });
        await row.waitFor();
        return (await row.getByRole("cell").allTextContents()).slice(-4);
      };
      await expect.poll(figures, { timeout: 30_000 }).toEqual([`${n}`, `${n}`, "0", "0"]);

      // The archive on the site shows it, without JavaScript.
      const site = await ctx.newPage({ javaScriptEnabled: false });
      await site.goto("/");
      await site.getByRole("link", { name: "Read past issues" }).click();
      await site.getByRole("heading", { level: 1, name: "The Revwise newsletter" }).waitFor();
      const archive = site.url();
      await site.getByRole("link", { name: subject }).click();
      await site.getByRole("heading", { level: 1, name: subject }).waitFor();
      await site.getByText("summarised").waitFor();
      // Both pages pass axe (which needs JavaScript to run).
      const checked = await ctx.newPage();
      for (const url of [archive, site.url()]) {
        await checked.goto(url);
        expect(await axeViolations(checked)).toEqual([]);
      }

      // A reader leaves from the issue's own link; the issue counts it.
      const leave = /https?:\/\/\S+\/newsletter\/unsubscribe\?token=\S+/.exec(
        copies[0]!.text ?? "",
      )![0];
      await site.goto(leave);
      await site.getByRole("button", { name: "Unsubscribe" }).click();
      await site.getByRole("heading", { level: 1, name: "You are unsubscribed" }).waitFor();
      await expect.poll(figures, { timeout: 30_000 }).toEqual([`${n}`, `${n}`, "0", "1"]);
    });
  },
  withTestSmtp((s) => (smtp = s)),
);

/** Presses the section's "Export CSV" and reads the download: its lines, header first. */
async function exportedCsv(page: Page, what: string): Promise<string[]> {
  const [download] = await Promise.all([
    page.waitForEvent("download"),
    page.getByRole("tabpanel").getByRole("button", { name: "Export CSV" }).click(),
  ]);
  expect(download.suggestedFilename()).toMatch(
    new RegExp(`^revwise-${what}-\\d{4}-\\d{2}-\\d{2}\\.csv$`),
  );
  const chunks: Buffer[] = [];
  for await (const chunk of await download.createReadStream())
    chunks.push(Buffer.from(chunk as Buffer));
  const file = Buffer.concat(chunks);
  // UTF-8 with its byte order mark, so that Excel reads accented names as they are.
  expect([...file.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
  return file.subarray(3).toString("utf8").trim().split(/\r?\n/);
}
