// GoTrue's rate limits: each endpoint has its own refilling bucket per client IP (a client that
// used up its recovery requests may still resend or verify), each limit is configurable and can
// be turned off, and a refusal is GoTrue's 429 with Retry-After.
import { expect, it } from "vitest";
import { describeAuthSuite } from "../../tests/support/auth-suite.ts";
import { uniqueEmail } from "../../tests/support/auth.ts";
import { uniqueIp, uniqueIpv6Network } from "../../tests/support/api-server.ts";

describeAuthSuite(
  "auth: rate limits",
  ({ auth }) => {
    const from = (ip: string, path: string, body: unknown) =>
      auth(path, {
        method: "POST",
        headers: { "x-forwarded-for": ip },
        body: JSON.stringify(body),
      });

    it("keeps one bucket per endpoint and client, refusing with GoTrue's 429", async () => {
      const ip = uniqueIp();
      const email = uniqueEmail("limited");
      const statuses = [];
      for (let i = 0; i < 4; i++) statuses.push((await from(ip, "/recover", { email })).status);
      expect(statuses).toEqual([200, 200, 200, 429]);
      const refused = await from(ip, "/recover", { email });
      expect(refused.headers.get("retry-after")).toMatch(/^[1-9]\d*$/);
      expect(await refused.json()).toMatchObject({
        error_code: "over_request_rate_limit",
        msg: "Request rate limit reached",
      });
      // The same client's other endpoints, and other clients, have their own buckets.
      expect((await from(ip, "/otp", { email })).status).toBe(200);
      expect((await from(uniqueIp(), "/recover", { email })).status).toBe(200);
      // Token grants: two per window here.
      const grants = [];
      for (let i = 0; i < 3; i++)
        grants.push(
          (await from(ip, "/token?grant_type=password", { email, password: "wrong-password" }))
            .status,
        );
      expect(grants).toEqual([400, 400, 429]);
    });

    it("keeps one bucket for every address of an IPv6 /64, and for an IPv4 address however written", async () => {
      const email = uniqueEmail("network");
      const network = uniqueIpv6Network();
      const statuses = [];
      for (const ip of [`${network}::1`, `${network}:ffff::2`, `${network.toUpperCase()}::3`])
        statuses.push((await from(ip, "/recover", { email })).status);
      expect(statuses).toEqual([200, 200, 200]);
      expect((await from(`${network}:1:2:3:4`, "/recover", { email })).status).toBe(429);
      expect((await from(`${uniqueIpv6Network()}::1`, "/recover", { email })).status).toBe(200);

      const ip = uniqueIp();
      for (let i = 0; i < 3; i++) await from(ip, "/recover", { email });
      expect((await from(`::ffff:${ip}`, "/recover", { email })).status).toBe(429);
    });

    it("turns a limit off with 0", async () => {
      const ip = uniqueIp();
      const statuses = new Set<number>();
      for (let i = 0; i < 40; i++)
        statuses.add(
          (await from(ip, "/verify", { type: "email", email: uniqueEmail(), token: "123456" }))
            .status,
        );
      expect([...statuses]).toEqual([403]);
    });
  },
  {
    GOTRUE_RATE_LIMIT_OTP: "3",
    GOTRUE_RATE_LIMIT_TOKEN_REFRESH: "2",
    GOTRUE_RATE_LIMIT_VERIFY: "0",
  },
);
