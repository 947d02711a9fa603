// Sending codes to phones: through a real Send SMS hook on loopback that verifies the Standard
// Webhooks signature, GoTrue's answers when the hook fails, and the dev mailbox without a hook.
import { afterAll, describe, expect, it } from "vitest";
import { uniquePhone } from "../../../tests/support/auth.ts";
import { describeWithDatabase } from "../../../tests/support/databases.ts";
import { hookSecret, startSmsHook } from "../../../tests/support/sms-hook.ts";
import { useTestServer } from "../../../tests/support/test-server.ts";
import { loadConfig } from "../../config.ts";
import type { UserRow } from "../models/users.ts";
import { HOOK_TIMING } from "./send-sms-hook.ts";
import { smsSender } from "./sms-sender.ts";

const hook = await startSmsHook();
afterAll(() => hook.stop());

const FAST = { ...HOOK_TIMING, timeoutMs: 1500, backoffMs: 100 };
const client = { ip: "203.0.113.7" };

describeWithDatabase("auth: sending codes to phones", (ctx) => {
  const { server } = useTestServer(() => ctx.db, { env: { DEV_MAILBOX: "true" } });
  const newUser = async (phone: string) =>
    (
      await ctx.db.query<UserRow>("INSERT INTO auth.users (phone) VALUES ($1) RETURNING *", [phone])
    )[0]!;
  const sender = (env: Record<string, string>) =>
    smsSender(loadConfig({ NODE_ENV: "test", SMTP_URL: "smtp://127.0.0.1:1", ...env }), FAST);

  describe("through the Send SMS hook", () => {
    it("POSTs GoTrue's hook input, signed as Standard Webhooks sign", async () => {
      const phone = uniquePhone();
      const user = await newUser(phone);
      await sender(hook.env).send(ctx.db, client, { user, phone, otp: "123456" });
      const message = await hook.waitFor(phone);
      expect(message.sms).toEqual({ otp: "123456", phone });
      expect(message.user).toMatchObject({ id: user.id, phone, aud: "authenticated" });
      expect(message.metadata).toMatchObject({ name: "send-sms", ip_address: client.ip });
      expect(new Date(message.metadata.time).getTime()).toBeGreaterThan(Date.now() - 60_000);
    });

    it("says what an MFA code is for", async () => {
      const phone = uniquePhone();
      const user = await newUser(phone);
      await sender(hook.env).send(ctx.db, client, { user, phone, otp: "654321", smsType: "mfa" });
      expect((await hook.waitFor(phone)).sms).toEqual({ otp: "654321", phone, sms_type: "mfa" });
    });

    it("signs with every configured secret, so the hook can rotate its secret", async () => {
      const phone = uniquePhone();
      const user = await newUser(phone);
      const env = {
        ...hook.env,
        GOTRUE_HOOK_SEND_SMS_SECRETS: `${hookSecret()}|${hook.env.GOTRUE_HOOK_SEND_SMS_SECRETS}`,
      };
      const forged = hook.forged;
      await sender(env).send(ctx.db, client, { user, phone, otp: "111111" });
      expect((await hook.waitFor(phone)).sms.otp).toBe("111111");
      expect(hook.forged).toBe(forged);
    });

    it("fails the request as GoTrue does when the hook refuses or cannot be reached", async () => {
      const phone = uniquePhone();
      const user = await newUser(phone);
      const send = (env = hook.env) =>
        sender(env)
          .send(ctx.db, client, { user, phone, otp: "000000" })
          .then(
            () => undefined,
            (err: { status: number; code: string; message: string }) => ({
              status: err.status,
              code: err.code,
              message: err.message,
            }),
          );
      try {
        hook.answer(() => ({ status: 400 }));
        expect(await send()).toEqual({
          status: 500,
          code: "unexpected_failure",
          message: "Invalid payload sent to hook",
        });
        hook.answer(() => ({
          status: 200,
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ error: { http_code: 422, message: "Number not reachable" } }),
        }));
        expect(await send()).toEqual({
          status: 422,
          code: "unknown",
          message: "Number not reachable",
        });
        hook.answer(() => ({ status: 200, headers: { "content-type": "text/plain" }, body: "ok" }));
        expect(await send()).toMatchObject({
          status: 400,
          code: "hook_payload_invalid_content_type",
        });
        // Busy with a Retry-After: tried again at once.
        hook.answer((attempt) =>
          attempt === 0 ? { status: 429, headers: { "retry-after": "1" } } : { status: 204 },
        );
        expect(await send()).toBeUndefined();
        hook.answer(() => ({ status: 503 }));
        expect(await send()).toMatchObject({
          status: 500,
          message: "Service currently unavailable due to hook",
        });
        hook.answer(() => ({
          status: 202,
          headers: { "content-type": "application/json; charset=utf-8" },
          body: "{}",
        }));
        expect(await send()).toBeUndefined();
        // A hook slower than the deadline (1.5 s here, 5 s in production).
        hook.answer(() => ({ status: 204, delayMs: 3000 }));
        expect(await send()).toEqual({
          status: 422,
          code: "hook_timeout",
          message: "Failed to reach hook within maximum time of 1.500000 seconds",
        });
      } finally {
        hook.answer(undefined);
      }
      // Nothing listens on port 9 of loopback: three attempts, then GoTrue's answer.
      expect(await send({ ...hook.env, GOTRUE_HOOK_SEND_SMS_URI: "http://127.0.0.1:9/" })).toEqual({
        status: 422,
        code: "hook_timeout_after_retry",
        message: "Failed to reach hook after maximum retries",
      });
    });
    it("follows no redirect: a hook that answers with one has not sent the message", async () => {
      const phone = uniquePhone();
      const user = await newUser(phone);
      const before = hook.messages.length;
      try {
        for (const status of [301, 302, 303, 307, 308]) {
          // Followed, the redirect would reach the hook again, which would then accept it.
          hook.answer((attempt) =>
            attempt === 0 ? { status, headers: { location: hook.url } } : { status: 204 },
          );
          await expect(
            sender(hook.env).send(ctx.db, client, { user, phone, otp: "222222" }),
          ).rejects.toMatchObject({
            status: 500,
            code: "unexpected_failure",
            message: `Unexpected status code returned from hook: ${status}`,
          });
        }
      } finally {
        hook.answer(undefined);
      }
      expect(hook.messages.length - before).toBe(5);
    });
  });

  describe("without a hook, in the dev mailbox", () => {
    it("keeps the message and lists it beside the emails", async () => {
      const phone = uniquePhone();
      const user = await newUser(phone);
      const dev = smsSender(server.app.config);
      await dev.send(ctx.db, client, { user, phone, otp: "424242", channel: "whatsapp" });
      const page = await (await fetch(`${server.url}/_dev/mailbox`)).text();
      expect(page).toContain("Your Revwise code is 424242. It works once, for 1 minute.");
      expect(page).toContain(`+${phone}`);
      expect(page).toContain("whatsapp");
    });

    it("refuses to send when there is neither a hook nor a dev mailbox", async () => {
      const phone = uniquePhone();
      const user = await newUser(phone);
      await expect(
        sender({ DEV_MAILBOX: "false" }).send(ctx.db, client, { user, phone, otp: "1" }),
      ).rejects.toMatchObject({ status: 500, message: "Unable to get SMS provider" });
    });
  });
});
