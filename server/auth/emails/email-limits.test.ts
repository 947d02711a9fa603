// The limits on account emails: a per-IP bucket for each endpoint that sends them, the site-wide
// hourly budget, and the per-IP budget spent on every path that emails a typed address.
import { describe, expect, it } from "vitest";
import { uniqueIp, uniqueIpv6Network } from "../../../tests/support/api-server.ts";
import { authHelpers } from "../../../tests/support/auth-suite.ts";
import { PASSWORD, uniqueEmail } from "../../../tests/support/auth.ts";
import { describeWithDatabase } from "../../../tests/support/databases.ts";
import { useTestServer } from "../../../tests/support/test-server.ts";

describeWithDatabase("auth: account-email limits", (ctx) => {
  describe("on the usual budget", () => {
    const { server, smtp } = useTestServer(() => ctx.db, {
      env: { RATE_LIMIT_EMAIL_SENT: "100000", RATE_LIMIT_LEAD_EMAIL_SENT: "100000" },
    });
    const { auth } = authHelpers(server, smtp, () => ctx.db);

    it("limits each account-email endpoint per client IP: a burst of 30, then 30 every 5 minutes", async () => {
      const ip = uniqueIp();
      const send = (path: string, body: object) =>
        auth(path, {
          method: "POST",
          headers: { "x-forwarded-for": ip },
          body: JSON.stringify(body),
        });
      const tries = [];
      for (let i = 0; i < 30; i++)
        tries.push((await send("/recover", { email: "not-valid" })).status);
      expect(tries.every((s) => s === 400)).toBe(true);
      const refused = await send("/recover", {});
      expect(refused.status).toBe(429);
      expect(await refused.json()).toMatchObject({ code: "over_request_rate_limit" });
      // The other endpoints of that IP, and other IPs, have their own buckets.
      expect((await send("/signup", { email: "not-valid", password: PASSWORD })).status).toBe(400);
      expect((await send("/resend", { type: "signup", email: "not-valid" })).status).toBe(400);
      expect(
        (
          await auth("/recover", {
            method: "POST",
            body: JSON.stringify({ email: "not-valid" }),
          })
        ).status,
      ).toBe(400);
    });
  });

  describe("with a site-wide budget of two emails an hour", () => {
    const { server } = useTestServer(() => ctx.db, { env: { RATE_LIMIT_EMAIL_SENT: "2" } });

    it("refuses account emails beyond the hourly budget with over_email_send_rate_limit", async () => {
      await ctx.db.query("DELETE FROM mail.outbox WHERE kind LIKE 'auth-%'");
      const signUp = () =>
        server
          .client({ ip: uniqueIp() })
          .auth.signUp({ email: uniqueEmail("budget"), password: PASSWORD });
      expect((await signUp()).error).toBeNull();
      expect((await signUp()).error).toBeNull();
      expect((await signUp()).error).toMatchObject({
        status: 429,
        code: "over_email_send_rate_limit",
      });
      // Every 429 tells the client when to try again.
      const refused = await fetch(`${server.url}/auth/v1/signup`, {
        method: "POST",
        headers: {
          apikey: server.anonKey,
          "content-type": "application/json",
          "x-forwarded-for": uniqueIp(),
        },
        body: JSON.stringify({ email: uniqueEmail("budget"), password: PASSWORD }),
      });
      expect(refused.status).toBe(429);
      expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(60);
    });
  });

  describe("with a per-IP budget of three emails", () => {
    const { server } = useTestServer(() => ctx.db, {
      env: {
        MAILER_AUTOCONFIRM: "true",
        RATE_LIMIT_EMAIL_IP: "3",
        RATE_LIMIT_EMAIL_SENT: "1000",
        RATE_LIMIT_LEAD_EMAIL_SENT: "1000",
      },
    });

    it("spends the per-IP email budget on every path that emails a typed address", async () => {
      const ip = uniqueIp();
      const visitor = server.client({ ip });
      // Signing up without confirmation emails nobody, so it spends nothing.
      const { data } = await visitor.auth.signUp({
        email: uniqueEmail("owner"),
        password: PASSWORD,
      });
      expect(data.session).toBeTruthy();
      const refused = { status: 429, code: "over_email_send_rate_limit" };
      expect((await visitor.auth.resetPasswordForEmail(uniqueEmail("nobody"))).error).toBeNull();
      expect(
        (await visitor.auth.resend({ type: "signup", email: uniqueEmail("nobody") })).error,
      ).toBeNull();
      expect((await visitor.auth.updateUser({ email: uniqueEmail("moved") })).error).toBeNull();
      expect((await visitor.auth.resetPasswordForEmail(uniqueEmail("nobody"))).error).toMatchObject(
        refused,
      );
      expect(
        (await visitor.auth.resend({ type: "signup", email: uniqueEmail("nobody") })).error,
      ).toMatchObject(refused);
      expect((await visitor.auth.updateUser({ email: uniqueEmail("moved") })).error).toMatchObject(
        refused,
      );
      // Another client address has a budget of its own.
      expect(
        (await server.client({ ip: uniqueIp() }).auth.resetPasswordForEmail(uniqueEmail("other")))
          .error,
      ).toBeNull();
    });

    it("counts an IPv6 client's budget by its /64, and an IPv4-mapped address as its IPv4", async () => {
      const recover = (ip: string) =>
        server.client({ ip }).auth.resetPasswordForEmail(uniqueEmail("network"));
      const refused = { status: 429, code: "over_email_send_rate_limit" };
      const network = uniqueIpv6Network();
      const neighbour = uniqueIpv6Network();
      // Every address of a /64, in any spelling, spends the one budget.
      expect((await recover(`${network}::1`)).error).toBeNull();
      expect((await recover(`${network}:ffff::2`)).error).toBeNull();
      const [, , a, b] = network.split(":");
      expect((await recover(`2001:0DB8:${a!.padStart(4, "0")}:${b}:0:0:0:3`)).error).toBeNull();
      expect((await recover(`${network}:abcd:1234:5678:9abc`)).error).toMatchObject(refused);
      // The next /64 is another client.
      expect((await recover(`${neighbour}::1`)).error).toBeNull();

      const ip = uniqueIp();
      for (let i = 0; i < 3; i++) expect((await recover(ip)).error).toBeNull();
      expect((await recover(`::ffff:${ip}`)).error).toMatchObject(refused);
    });
  });
});
