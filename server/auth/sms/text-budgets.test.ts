// Text messages spend budgets, every kind of them (a phone's sign-up, sign-in and change-of-number
// codes, a reauthentication code by text, a phone factor's challenge): so many an hour per client
// (RATE_LIMIT_EMAIL_IP, shared with emails), per person (RATE_LIMIT_SMS_USER: the account asking,
// and the number texted) and for the whole site (GOTRUE_RATE_LIMIT_SMS_SENT, apart from the emails'
// budget), counted in this process or in Redis. A refusal is GoTrue's 429 over_sms_send_rate_limit,
// and nothing is texted.
import { afterAll, expect, it } from "vitest";
import { uniqueIp } from "../../../tests/support/api-server.ts";
import { describeAuthSuite } from "../../../tests/support/auth-suite.ts";
import { PASSWORD, uniqueEmail, uniquePhone } from "../../../tests/support/auth.ts";
import { redisAvailable, TEST_REDIS_URL } from "../../../tests/support/redis.ts";
import { startSmsHook } from "../../../tests/support/sms-hook.ts";

const hook = await startSmsHook();
afterAll(() => hook.stop());

const PHONES = {
  GOTRUE_EXTERNAL_PHONE_ENABLED: "true",
  GOTRUE_MFA_PHONE_ENROLL_ENABLED: "true",
  GOTRUE_MFA_PHONE_VERIFY_ENABLED: "true",
  ...hook.env,
};
const textsTo = (phone: string) => hook.messages.filter((m) => m.sms.phone === phone).length;
const sessionOf = (token: string) =>
  (JSON.parse(Buffer.from(token.split(".")[1]!, "base64url").toString()) as { session_id: string })
    .session_id;

const counted: { where: string; env: Record<string, string> }[] = [
  { where: "in the process", env: {} },
  ...((await redisAvailable()) ? [{ where: "in Redis", env: { REDIS_URL: TEST_REDIS_URL } }] : []),
];

for (const { where, env } of counted)
  describeAuthSuite(
    `auth: text budgets per client and per person, counted ${where}`,
    ({ ctx, server, confirmedUser }) => {
      /**
       * A signed-in user (from `ip`) with a factor for the phone: a challenge of it, from that client.
       */
      async function phoneFactor(ip: string, phone = uniquePhone()) {
        const { email } = await confirmedUser("text-budget");
        const supabase = server.client({ ip });
        await supabase.auth.signInWithPassword({ email, password: PASSWORD });
        const factorId = (
          await supabase.auth.mfa.enroll({ factorType: "phone", phone: `+${phone}` })
        ).data!.id;
        const challenge = async () => {
          // The factor's own interval (GOTRUE_MFA_PHONE_MAX_FREQUENCY) is not what is tested here.
          await ctx.db.query(
            "UPDATE auth.mfa_factors SET last_challenged_at = NULL WHERE id = $1",
            [factorId],
          );
          return (await supabase.auth.mfa.challenge({ factorId })).error;
        };
        return { phone, challenge };
      }

      it("refuses a client's phone-factor challenges past its hour's budget, and texts nothing", async () => {
        const ip = uniqueIp();
        const first = await phoneFactor(ip);
        const second = await phoneFactor(ip);
        expect(await first.challenge()).toBeNull();
        expect(await first.challenge()).toBeNull();
        expect(await second.challenge()).toBeNull();
        expect(await second.challenge()).toMatchObject({
          status: 429,
          code: "over_sms_send_rate_limit",
        });
        expect([textsTo(first.phone), textsTo(second.phone)]).toEqual([2, 1]);
      });

      it("refuses a person's texts past their hour's budget, from any client", async () => {
        const factor = await phoneFactor(uniqueIp());
        expect(await factor.challenge()).toBeNull();
        expect(await factor.challenge()).toBeNull();
        expect(await factor.challenge()).toMatchObject({
          status: 429,
          code: "over_sms_send_rate_limit",
        });
        expect(textsTo(factor.phone)).toBe(2);

        // A number enrolled by several accounts: its budget is its own, whoever asks.
        const victim = uniquePhone();
        const texted = [];
        for (let i = 0; i < 3; i++)
          texted.push(await (await phoneFactor(uniqueIp(), victim)).challenge());
        expect(texted).toEqual([null, null, expect.objectContaining({ status: 429 })]);
        expect(textsTo(victim)).toBe(2);
      });
    },
    { ...PHONES, RATE_LIMIT_EMAIL_IP: "3", RATE_LIMIT_SMS_USER: "2", ...env },
  );

describeAuthSuite(
  "auth: the site's text budget",
  ({ ctx, client, confirmedUser }) => {
    it("counts every kind of text against the site's hour, apart from its emails", async () => {
      // A sign-up, a sign-in code, a change of number, a reauthentication, a phone factor's
      // challenge: five texts, each asked from its own client.
      const signUp = uniquePhone();
      expect(
        (await client().auth.signUp({ phone: `+${signUp}`, password: PASSWORD })).error,
      ).toBeNull();
      const signIn = uniquePhone();
      expect((await client().auth.signInWithOtp({ phone: `+${signIn}` })).error).toBeNull();
      await hook.waitFor(signUp);

      const person = client();
      const { otp } = (await hook.waitFor(signIn)).sms;
      expect(
        (await person.auth.verifyOtp({ phone: signIn, token: otp, type: "sms" })).error,
      ).toBeNull();
      const newNumber = uniquePhone();
      expect((await person.auth.updateUser({ phone: `+${newNumber}` })).error).toBeNull();
      await hook.waitFor(newNumber);
      const { data } = await person.auth.getSession();
      await ctx.db.query(
        "UPDATE auth.sessions SET created_at = now() - interval '25 hours' WHERE id = $1",
        [sessionOf(data.session!.access_token)],
      );
      expect((await person.auth.reauthenticate()).error).toBeNull();

      const { email } = await confirmedUser("site-texts");
      const member = client();
      await member.auth.signInWithPassword({ email, password: PASSWORD });
      const factorPhone = uniquePhone();
      const factorId = (
        await member.auth.mfa.enroll({ factorType: "phone", phone: `+${factorPhone}` })
      ).data!.id;
      expect((await member.auth.mfa.challenge({ factorId })).error).toBeNull();
      await hook.waitFor(factorPhone);

      // The sixth text of the hour is refused, whatever asks for it; emails still go.
      const late = uniquePhone();
      expect((await client().auth.signInWithOtp({ phone: `+${late}` })).error).toMatchObject({
        status: 429,
        code: "over_sms_send_rate_limit",
      });
      expect(textsTo(late)).toBe(0);
      expect(
        (await client().auth.signUp({ email: uniqueEmail("site-texts"), password: PASSWORD }))
          .error,
      ).toBeNull();
    });
  },
  { ...PHONES, GOTRUE_RATE_LIMIT_SMS_SENT: "5" },
);
