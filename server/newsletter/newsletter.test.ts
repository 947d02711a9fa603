// The newsletter's double opt-in through the real supabase-js client, the real emails (links read
// out of them, followed as a browser and as a mail client's one-click unsubscribe would) and the
// team's digests of leads that email it nothing of their own.
import type { ParsedMail } from "mailparser";
import { expect, it } from "vitest";
import { NEWSLETTER_PENDING } from "../../common/leads.ts";
import { startApiServer, uniqueIp } from "../../tests/support/api-server.ts";
import { uniqueEmail } from "../../tests/support/auth.ts";
import { describeWithDatabase } from "../../tests/support/databases.ts";
import { CONFIRM_SUBJECT, newsletterLink } from "../../tests/support/newsletter.ts";
import { addressOf } from "../../tests/support/smtp.ts";
import { useTestServer } from "../../tests/support/test-server.ts";
import { deleteUnconfirmed } from "./subscribers.ts";

const WELCOME = "Welcome to the Revwise newsletter";
const TEAM = `team-${Date.now().toString(36)}@revwise.example`;
/** Every server of this file digests on the same short interval (the digest rows are shared). */
const DIGEST_ENV = {
  LEAD_DIGEST_SECONDS: "1",
  NOTIFY_EMAIL: TEAM,
  RATE_LIMIT_EMAIL_SENT: "100000",
  RATE_LIMIT_LEAD_EMAIL_SENT: "100000",
};

/** A header field as the message carried it (mailparser reshapes the List-* fields). */
const header = (mail: ParsedMail, name: string) =>
  mail.headerLines
    .find((h) => h.key === name.toLowerCase())
    ?.line.slice(name.length + 1)
    .trim();

describeWithDatabase("newsletter double opt-in", (ctx) => {
  const { server, smtp } = useTestServer(() => ctx.db, { env: DIGEST_ENV });
  const signUp = (email: string) =>
    server.client({ ip: uniqueIp() }).from("newsletter_subscribers").insert({ email });
  const subscriber = async (email: string) =>
    (
      await ctx.db.query<{
        status: string;
        confirmed_at: Date | null;
        unsubscribed_at: Date | null;
      }>(
        "SELECT status, confirmed_at, unsubscribed_at FROM public.newsletter_subscribers WHERE email = $1",
        [email],
      )
    )[0];
  const confirmations = async (email: string) =>
    (
      await ctx.db.query<{ n: number }>(
        "SELECT count(*)::int AS n FROM mail.outbox WHERE to_address = $1 AND kind = 'newsletter-confirm'",
        [email],
      )
    )[0]!.n;
  const post = (url: string, body = "", type = "application/x-www-form-urlencoded") =>
    fetch(url, { method: "POST", body, headers: { "content-type": type }, redirect: "manual" });

  it("keeps a sign-up pending until its emailed link is confirmed by a POST, never by a GET", async () => {
    const email = uniqueEmail("news");
    expect(await signUp(email)).toMatchObject({ status: 201, error: null });
    expect(await subscriber(email)).toMatchObject({ status: "pending", confirmed_at: null });

    const mail = await smtp.waitFor((m) => addressOf(m) === email && m.subject === CONFIRM_SUBJECT);
    const confirm = newsletterLink(mail, "/newsletter/confirm");
    expect(confirm.startsWith(`${server.url}/newsletter/confirm?token=`)).toBe(true);
    // The token names neither the address nor anything guessable from it.
    expect(confirm).not.toContain(email.split("@")[0]);

    // A scanner's (or a person's) GET shows the button and changes nothing.
    const page = await fetch(confirm);
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain('<form method="post"');
    expect(html).toContain("Confirm my subscription");
    expect(page.headers.get("content-security-policy")).toMatch(/form-action 'self'/);
    expect(page.headers.get("content-security-policy")).not.toMatch(/script-src/);
    expect((await subscriber(email))!.status).toBe("pending");

    const done = await post(confirm);
    expect(done.status).toBe(200);
    expect(await done.text()).toContain("Your subscription is confirmed");
    const confirmed = await subscriber(email);
    expect(confirmed).toMatchObject({ status: "subscribed", confirmed_at: expect.any(Date) });
    // Confirmed, the address is welcomed: where past issues are, and how to leave in one click.
    const welcome = await smtp.waitFor((m) => addressOf(m) === email && m.subject === WELCOME);
    expect(welcome.text).toContain(`${server.url}/newsletter`);
    expect(header(welcome, "List-Unsubscribe-Post")).toBe("List-Unsubscribe=One-Click");
    expect(newsletterLink(welcome, "/newsletter/unsubscribe")).toBeTruthy();
    // Confirming again changes nothing, and welcomes nobody twice.
    expect((await post(confirm)).status).toBe(200);
    expect((await subscriber(email))!.confirmed_at).toEqual(confirmed!.confirmed_at);
    expect(
      smtp.messages.filter((m) => addressOf(m) === email && m.subject === WELCOME),
    ).toHaveLength(1);

    // Signing up again keeps the spec's answer ("Already subscribed") and sends nothing.
    const again = await signUp(email.toUpperCase());
    expect(again).toMatchObject({ status: 409, error: { code: "23505" } });
    expect(Object.values(NEWSLETTER_PENDING)).not.toContain(again.error?.details);
    expect(await confirmations(email)).toBe(1);
  });

  it("spends no email on a subscribed address's sign-up: unsubscribed later, it gets its confirmation", async () => {
    // Subscribed long ago (no email to it within the hour).
    const email = uniqueEmail("long-subscribed");
    await ctx.db.query(
      "INSERT INTO public.newsletter_subscribers (email, status, confirmed_at) VALUES ($1, 'subscribed', now())",
      [email],
    );
    expect(await signUp(email)).toMatchObject({ status: 409, error: { code: "23505" } });
    expect(await confirmations(email)).toBe(0);
    await ctx.db.query(
      "UPDATE public.newsletter_subscribers SET status = 'unsubscribed', unsubscribed_at = now() WHERE email = $1",
      [email],
    );
    expect((await signUp(email)).status).toBe(201);
    expect(await confirmations(email)).toBe(1);
  });

  it("re-sends a pending address's confirmation at most once per window; the answer is the spec's", async () => {
    const email = uniqueEmail("pending");
    expect((await signUp(email)).status).toBe(201);
    for (const n of [1, 2]) {
      const again = await signUp(email);
      // The footer tells a pending address that its confirmation went within the hour.
      expect([n, again.status, again.error?.code, again.error?.details]).toEqual([
        n,
        409,
        "23505",
        NEWSLETTER_PENDING.waiting,
      ]);
    }
    expect(await confirmations(email)).toBe(1);
    expect((await subscriber(email))!.status).toBe("pending");
  });

  it("tells a pending address its confirmation was sent again when it was", async () => {
    // A second instance without Redis keeps its own repeat window: the address's repeat there is
    // its first, so the confirmation goes again, and the answer says so.
    const second = await startApiServer(ctx.db, { env: { SMTP_URL: smtp.url, ...DIGEST_ENV } });
    try {
      const email = uniqueEmail("resent");
      expect((await signUp(email)).status).toBe(201);
      const again = await second
        .client({ ip: uniqueIp() })
        .from("newsletter_subscribers")
        .insert({ email });
      expect([again.status, again.error?.code, again.error?.details]).toEqual([
        409,
        "23505",
        NEWSLETTER_PENDING.resent,
      ]);
      expect(await confirmations(email)).toBe(2);
      await smtp.waitForCount(2, (m) => addressOf(m) === email && m.subject === CONFIRM_SUBJECT);
    } finally {
      await second.close();
    }
  });

  it("unsubscribes in one click (RFC 8058) from the header's link, idempotently; a forged token changes nothing", async () => {
    const email = uniqueEmail("leaving");
    await signUp(email);
    const mail = await smtp.waitFor((m) => addressOf(m) === email && m.subject === CONFIRM_SUBJECT);
    await post(newsletterLink(mail, "/newsletter/confirm"));
    expect((await subscriber(email))!.status).toBe("subscribed");

    expect(header(mail, "List-Unsubscribe-Post")).toBe("List-Unsubscribe=One-Click");
    const listed = /^<(.+)>$/.exec(header(mail, "List-Unsubscribe") ?? "")?.[1];
    expect(listed).toBe(newsletterLink(mail, "/newsletter/unsubscribe"));
    expect(mail.html).toContain(`href="${listed!.replace(/&/g, "&amp;")}"`);

    const forged = listed!.replace(/.$/, (c) => (c === "A" ? "B" : "A"));
    for (const res of [await fetch(forged), await post(forged, "List-Unsubscribe=One-Click")]) {
      expect(res.status).toBe(400);
      expect(await res.text()).toContain("This link is not valid");
    }
    // A confirmation token is not an unsubscribe token, nor the other way round.
    const swapped = listed!.replace("/newsletter/unsubscribe", "/newsletter/confirm");
    expect((await post(swapped)).status).toBe(400);
    expect((await subscriber(email))!.status).toBe("subscribed");

    // The page a person opens asks first; the mail client's POST unsubscribes, without redirect.
    const page = await fetch(listed!);
    expect([page.status, (await page.text()).includes(">Unsubscribe</button>")]).toEqual([
      200,
      true,
    ]);
    expect((await subscriber(email))!.status).toBe("subscribed");
    const oneClick = await post(listed!, "List-Unsubscribe=One-Click");
    expect(oneClick.status).toBe(200);
    const left = await subscriber(email);
    expect(left).toMatchObject({ status: "unsubscribed", unsubscribed_at: expect.any(Date) });
    const twice = await post(
      listed!,
      '--x\r\nContent-Disposition: form-data; name="List-Unsubscribe"\r\n\r\nOne-Click\r\n--x--\r\n',
      "multipart/form-data; boundary=x",
    );
    expect(twice.status).toBe(200);
    expect((await subscriber(email))!.unsubscribed_at).toEqual(left!.unsubscribed_at);

    // The old confirmation link does not subscribe an unsubscribed address again.
    const stale = await post(newsletterLink(mail, "/newsletter/confirm"));
    expect(stale.status).toBe(409);
    expect((await subscriber(email))!.status).toBe("unsubscribed");

    // Signing up again goes through confirmation again. Its confirmation went within the hour, so
    // none goes now (200: nothing new sent); the one it has confirms it.
    expect(await signUp(email)).toMatchObject({ status: 200, error: null });
    expect((await subscriber(email))!.status).toBe("pending");
    expect((await post(newsletterLink(mail, "/newsletter/confirm"))).status).toBe(200);
    expect((await subscriber(email))!.status).toBe("subscribed");
  });

  it("refuses a confirmation link past its 7 days with 410, and confirms nothing", async () => {
    const email = uniqueEmail("late");
    await signUp(email);
    const [row] = await ctx.db.query<{ id: string }>(
      "SELECT id FROM public.newsletter_subscribers WHERE email = $1",
      [email],
    );
    const eightDaysAgo = Date.now() - 8 * 24 * 3600 * 1000;
    const late = server.app.newsletter.links.url("confirm", row!.id, eightDaysAgo);
    for (const res of [await fetch(late), await post(late)]) {
      expect(res.status).toBe(410);
      expect(await res.text()).toContain("This confirmation link has expired");
    }
    expect((await subscriber(email))!.status).toBe("pending");
  });

  it("deletes addresses left unconfirmed 30 days after their last sign-up, and no other", async () => {
    const [old, fresh, kept] = [uniqueEmail("old"), uniqueEmail("fresh"), uniqueEmail("kept")];
    for (const email of [old, fresh, kept]) await signUp(email);
    await ctx.db.query(
      "UPDATE public.newsletter_subscribers SET requested_at = now() - interval '31 days' WHERE email IN ($1, $2)",
      [old, kept],
    );
    await ctx.db.query(
      "UPDATE public.newsletter_subscribers SET status = 'subscribed', confirmed_at = now() WHERE email = $1",
      [kept],
    );
    expect(await deleteUnconfirmed(ctx.db)).toBeGreaterThanOrEqual(1);
    expect(await subscriber(old)).toBeUndefined();
    expect((await subscriber(fresh))!.status).toBe("pending");
    expect((await subscriber(kept))!.status).toBe("subscribed");
  });

  it("tells the team of Watch Demo requests and confirmed subscribers in digests, each lead once across instances", async () => {
    const second = await startApiServer(ctx.db, { env: { SMTP_URL: smtp.url, ...DIGEST_ENV } });
    try {
      const domain = `digest-${Date.now().toString(36)}.example`;
      const demos = [1, 2, 3].map((n) => `buyer${n}@${domain}`);
      for (const [n, email] of demos.entries())
        expect(
          (
            await (n % 2 ? second : server)
              .client({ ip: uniqueIp() })
              .from("demo_requests")
              .insert({ email })
          ).status,
        ).toBe(201);
      const [reader, waiting] = [`reader@${domain}`, `waiting@${domain}`];
      await signUp(reader);
      await signUp(waiting);
      const mail = await smtp.waitFor(
        (m) => addressOf(m) === reader && m.subject === CONFIRM_SUBJECT,
      );
      await post(newsletterLink(mail, "/newsletter/confirm"));

      const digests = (kind: RegExp) =>
        smtp.messages.filter((m) => addressOf(m) === TEAM && kind.test(m.subject ?? ""));
      const listed = (kind: RegExp, email: string) =>
        digests(kind).filter((m) => m.text?.includes(email)).length;
      for (const email of demos)
        await smtp.waitFor(
          (m) => addressOf(m) === TEAM && Boolean(m.text?.includes(email)),
          15_000,
        );
      await smtp.waitFor((m) => addressOf(m) === TEAM && Boolean(m.text?.includes(reader)), 15_000);

      // Each lead in exactly one digest, whichever instance queued it; the pending one in none.
      for (const email of demos) expect(listed(/Watch Demo request/, email)).toBe(1);
      expect(listed(/newsletter subscriber/, reader)).toBe(1);
      expect(
        smtp.messages.filter((m) => addressOf(m) === TEAM && m.text?.includes(waiting)),
      ).toEqual([]);
      const digest = digests(/newsletter subscriber/).find((m) => m.text?.includes(reader))!;
      // A link to the inbox filtered to these leads, on whichever instance's site queued it (one
      // SITE_URL in production); their times in the team's time zone.
      expect(digest.text).toMatch(
        /Open these leads: http:\/\/127\.0\.0\.1:\d+\/team#inbox\?kind=newsletter&from=\d{4}-\d\d-\d\d\n/,
      );
      expect(digest.text).toMatch(/\(\w{3} \d+, \d{4}, \d+:\d\d [AP]M P[SD]T\)/);

      // One instance gone (as after a crash or a deploy): the next digest starts where the last
      // one ended, with only what came since.
      await second.close();
      const late = `late@${domain}`;
      await server.client({ ip: uniqueIp() }).from("demo_requests").insert({ email: late });
      await smtp.waitFor((m) => addressOf(m) === TEAM && Boolean(m.text?.includes(late)), 15_000);
      for (const email of [...demos, late]) expect(listed(/Watch Demo request/, email)).toBe(1);

      // A burst is one email: the first hundred leads named, the rest counted.
      const burst = `burst-${domain}`;
      await ctx.db.query(
        "INSERT INTO public.demo_requests (email) SELECT 'b' || n || '@' || $1 FROM generate_series(1, 105) AS n",
        [burst],
      );
      const big = await smtp.waitFor(
        (m) => addressOf(m) === TEAM && Boolean(m.text?.includes(burst)),
        15_000,
      );
      expect(big.subject).toBe("105 new Watch Demo requests");
      expect(big.text!.split("\n").filter((line) => line.includes(`@${burst}`))).toHaveLength(100);
      expect(big.text).toContain("…and 5 more.");
    } finally {
      await second.close();
    }
  });
});
