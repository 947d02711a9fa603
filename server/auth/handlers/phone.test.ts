// Phones through supabase-js: sign-up with phone and password (code by text message through a
// real Send SMS hook), sign-in with phone and password, a change of number through PUT /user, and
// /resend of both codes; SMS autoconfirm; phones switched off.
import { afterAll, expect, it } from "vitest";
import type { SupabaseClient } from "@supabase/supabase-js";
import {
  describeAuthSuite,
  describeAuthSuiteEachDatabase,
} from "../../../tests/support/auth-suite.ts";
import {
  followLink,
  linkIn,
  PASSWORD,
  uniqueEmail,
  uniquePhone,
} from "../../../tests/support/auth.ts";
import { uniqueIp } from "../../../tests/support/api-server.ts";
import { startSmsHook } from "../../../tests/support/sms-hook.ts";

const hook = await startSmsHook();
afterAll(() => hook.stop());
const ENV = { GOTRUE_EXTERNAL_PHONE_ENABLED: "true", ...hook.env };

/** A user signed up with phone and password, confirmed by the texted code, signed in. */
async function signedUpPhone(client: () => SupabaseClient) {
  const phone = uniquePhone();
  const supabase = client();
  await supabase.auth.signUp({ phone: `+${phone}`, password: PASSWORD });
  const { otp } = (await hook.waitFor(phone)).sms;
  const { error } = await supabase.auth.verifyOtp({ phone, token: otp, type: "sms" });
  expect(error).toBeNull();
  return { phone, supabase };
}

describeAuthSuite(
  "auth: phones",
  ({ client, auth, confirmedUser, count, emailTo, server }) => {
    const phoneUser = () => signedUpPhone(client);

    it("signs up with phone and password, confirms by the texted code, signs in with the password", async () => {
      const phone = uniquePhone();
      const supabase = client();
      const { data, error } = await supabase.auth.signUp({
        phone: `+${phone}`,
        password: PASSWORD,
        options: { data: { name: "Lin" } },
      });
      expect(error).toBeNull();
      expect(data.session).toBeNull();
      expect(data.user).toMatchObject({
        phone,
        email: "",
        user_metadata: { name: "Lin" },
        app_metadata: { provider: "phone", providers: ["phone"] },
      });
      expect(data.user?.confirmation_sent_at).toBeTruthy();
      const unconfirmed = await client().auth.signInWithPassword({ phone, password: PASSWORD });
      expect(unconfirmed.error).toMatchObject({ status: 400, code: "phone_not_confirmed" });
      const { otp } = (await hook.waitFor(phone)).sms;
      expect((await supabase.auth.verifyOtp({ phone, token: otp, type: "sms" })).error).toBeNull();
      const signedIn = await client().auth.signInWithPassword({
        phone: `+${phone}`,
        password: PASSWORD,
      });
      expect(signedIn.error).toBeNull();
      expect(signedIn.data.user?.phone).toBe(phone);
      const claims = JSON.parse(
        Buffer.from(signedIn.data.session!.access_token.split(".")[1]!, "base64url").toString(),
      ) as { phone: string; email: string; amr: { method: string }[] };
      expect(claims).toMatchObject({ phone, email: "", amr: [{ method: "password" }] });
      const wrong = await client().auth.signInWithPassword({ phone, password: `${PASSWORD}x` });
      expect(wrong.error).toMatchObject({ status: 400, code: "invalid_credentials" });
    });

    it("reveals no account: signing up a taken number answers like a new one", async () => {
      const { phone } = await phoneUser();
      const again = await client().auth.signUp({ phone, password: PASSWORD });
      const fresh = await client().auth.signUp({ phone: uniquePhone(), password: PASSWORD });
      expect(again.error).toBeNull();
      const shape = (u: typeof again.data.user) =>
        Object.keys(u ?? {})
          .sort()
          .join(",");
      expect(shape(again.data.user)).toBe(shape(fresh.data.user));
      expect(again.data.user?.identities).toHaveLength(1);
      const unknown = await client().auth.signInWithPassword({
        phone: uniquePhone(),
        password: PASSWORD,
      });
      expect(unknown.error).toMatchObject({ status: 400, code: "invalid_credentials" });
    });

    it("answers a sign-up alike for a new number and a taken one when the hook refuses; the new one asks again", async () => {
      const { phone: taken } = await phoneUser();
      const fresh = uniquePhone();
      hook.answer(() => ({ status: 503 }));
      let answers;
      try {
        answers = [
          await client().auth.signUp({ phone: taken, password: PASSWORD }),
          await client().auth.signUp({ phone: fresh, password: PASSWORD }),
        ];
        await hook.waitFor(fresh);
      } finally {
        hook.answer(undefined);
      }
      expect(answers.map((a) => [a.error, a.data.user?.phone])).toEqual([
        [null, taken],
        [null, fresh],
      ]);
      // The refused code was not kept; the number asks again and confirms with the next one.
      const supabase = client();
      expect((await supabase.auth.resend({ type: "sms", phone: fresh })).error).toBeNull();
      const { otp } = (await hook.waitFor(fresh, 2)).sms;
      const { data, error } = await supabase.auth.verifyOtp({
        phone: fresh,
        token: otp,
        type: "sms",
      });
      expect(error).toBeNull();
      expect(data.session?.user.phone_confirmed_at).toBeTruthy();
    });

    it("changes the number by PUT /user: a code to the new number, verified as phone_change", async () => {
      const { phone, supabase } = await phoneUser();
      const next = uniquePhone();
      const { data, error } = await supabase.auth.updateUser({ phone: `+${next}` });
      expect(error).toBeNull();
      expect(data.user).toMatchObject({ phone, new_phone: next });
      const { otp } = (await hook.waitFor(next)).sms;
      const wrongType = await supabase.auth.verifyOtp({ phone: next, token: otp, type: "sms" });
      expect(wrongType.error).toMatchObject({ status: 403, code: "otp_expired" });
      const changed = await supabase.auth.verifyOtp({
        phone: next,
        token: otp,
        type: "phone_change",
      });
      expect(changed.error).toBeNull();
      expect(changed.data.user).toMatchObject({ phone: next });
      expect(changed.data.user?.new_phone).toBeUndefined();
      expect(
        (await client().auth.signInWithPassword({ phone: next, password: PASSWORD })).error,
      ).toBeNull();
      expect(
        (await client().auth.signInWithPassword({ phone, password: PASSWORD })).error,
      ).toMatchObject({ code: "invalid_credentials" });
    });

    it("keeps a change to a second number asked while the first number's code is on its way", async () => {
      const { supabase } = await phoneUser();
      const token = (await supabase.auth.getSession()).data.session!.access_token;
      const [first, second] = [uniquePhone(), uniquePhone()];
      // Plain requests: the suite's client would wait for the held text message.
      const change = (phone: string) =>
        fetch(`${server.url}/auth/v1/user`, {
          method: "PUT",
          headers: {
            apikey: server.anonKey,
            authorization: `Bearer ${token}`,
            "content-type": "application/json",
            "x-forwarded-for": uniqueIp(),
          },
          body: JSON.stringify({ phone }),
        });
      let release = () => {};
      const held = new Promise<void>((resolve) => (release = resolve));
      hook.answer(() => ({ status: 204, until: held }));
      try {
        expect((await change(first)).status).toBe(200);
        await hook.waitFor(first);
        expect((await change(second)).status).toBe(200);
        await hook.waitFor(second);
      } finally {
        release();
        hook.answer(undefined);
      }
      await server.app.afterAnswer.idle();
      const { otp } = (await hook.waitFor(second)).sms;
      const changed = await supabase.auth.verifyOtp({
        phone: second,
        token: otp,
        type: "phone_change",
      });
      expect(changed.error).toBeNull();
      expect(changed.data.user).toMatchObject({ phone: second });
    });

    it("adds a first number to an email account, with a phone identity", async () => {
      const { supabase } = await confirmedUser("adds-phone");
      const phone = uniquePhone();
      expect((await supabase.auth.updateUser({ phone })).error).toBeNull();
      const { otp } = (await hook.waitFor(phone)).sms;
      const { data, error } = await supabase.auth.verifyOtp({
        phone,
        token: otp,
        type: "phone_change",
      });
      expect(error).toBeNull();
      expect(data.user?.app_metadata.providers).toEqual(["email", "phone"]);
      expect(data.user?.identities?.map((i) => i.provider)).toEqual(["email", "phone"]);
    });

    it("adds a first email address to a phone account by its link alone, with an email identity", async () => {
      const { phone, supabase } = await phoneUser();
      const email = uniqueEmail("phone-adds-email");
      expect((await supabase.auth.updateUser({ email })).error).toBeNull();
      const { fragment } = await followLink(
        linkIn(await emailTo(email, "Confirm your new Revwise email address")),
      );
      expect(fragment.get("error_code")).toBeNull();
      const { data } = await supabase.auth.getUser(fragment.get("access_token")!);
      expect(data.user).toMatchObject({ email, phone });
      expect(data.user?.email_confirmed_at).toBeTruthy();
      expect(data.user?.app_metadata).toMatchObject({
        provider: "phone",
        providers: ["phone", "email"],
      });
      expect(data.user?.identities?.map((i) => i.provider)).toEqual(["phone", "email"]);
    });

    it("sends nothing to a number that has an account, and answers alike", async () => {
      const { phone: taken } = await phoneUser();
      const { supabase } = await phoneUser();
      const { data, error } = await supabase.auth.updateUser({ phone: taken });
      expect(error).toBeNull();
      expect(data.user?.new_phone).toBe(taken);
      expect(hook.messages.filter((m) => m.sms.phone === taken)).toHaveLength(1);
    });

    it("answers a change of number alike for a taken number and a free one when the hook refuses; the free one asks again at once", async () => {
      const { phone: taken } = await phoneUser();
      const { phone, supabase } = await phoneUser();
      const free = uniquePhone();
      hook.answer(() => ({ status: 503 }));
      let answers;
      try {
        answers = [
          await supabase.auth.updateUser({ phone: taken }),
          await supabase.auth.updateUser({ phone: free }),
        ];
        await hook.waitFor(free);
      } finally {
        hook.answer(undefined);
      }
      expect(answers.map((a) => [a.error, a.data.user?.new_phone])).toEqual([
        [null, taken],
        [null, free],
      ]);
      // The refused code gave its minute back: the free number asks again at once.
      expect((await client().auth.resend({ type: "phone_change", phone })).error).toBeNull();
      const { otp } = (await hook.waitFor(free, 2)).sms;
      const verified = await supabase.auth.verifyOtp({
        phone: free,
        token: otp,
        type: "phone_change",
      });
      expect(verified.error).toBeNull();
      expect(verified.data.user?.phone).toBe(free);
    });

    it("answers create_user false for a number without an account as for one, texting nothing", async () => {
      const phone = uniquePhone();
      const { error } = await client().auth.signInWithOtp({
        phone,
        options: { shouldCreateUser: false },
      });
      expect(error).toBeNull();
      expect(
        await count("SELECT count(*)::int AS n FROM auth.users WHERE phone = $1", [phone]),
      ).toBe(0);
      // The suite's client waits for the work an answer leaves: the sign-up's code is the
      // number's first and only one.
      await client().auth.signUp({ phone, password: PASSWORD });
      await hook.waitFor(phone);
      expect(hook.messages.filter((m) => m.sms.phone === phone)).toHaveLength(1);
    });

    it("resends the confirmation code (sms) and the new number's code (phone_change)", async () => {
      const phone = uniquePhone();
      const supabase = client();
      await supabase.auth.signUp({ phone, password: PASSWORD });
      await hook.waitFor(phone);
      await count(
        "UPDATE auth.users SET confirmation_sent_at = now() - interval '2 minutes' WHERE phone = $1 RETURNING 1 AS n",
        [phone],
      );
      expect((await client().auth.resend({ type: "sms", phone })).error).toBeNull();
      const resent = await hook.waitFor(phone, 2);
      expect(
        (await supabase.auth.verifyOtp({ phone, token: resent.sms.otp, type: "sms" })).error,
      ).toBeNull();

      const next = uniquePhone();
      await supabase.auth.updateUser({ phone: next });
      await hook.waitFor(next);
      await count(
        "UPDATE auth.users SET phone_change_sent_at = now() - interval '2 minutes' WHERE phone = $1 RETURNING 1 AS n",
        [phone],
      );
      expect((await client().auth.resend({ type: "phone_change", phone })).error).toBeNull();
      const code = (await hook.waitFor(next, 2)).sms.otp;
      expect(
        (await supabase.auth.verifyOtp({ phone: next, token: code, type: "phone_change" })).error,
      ).toBeNull();
      // Unknown numbers and nothing pending answer alike.
      expect((await client().auth.resend({ type: "sms", phone: uniquePhone() })).error).toBeNull();
      expect((await client().auth.resend({ type: "phone_change", phone: next })).error).toBeNull();
    });

    it("answers /resend of a code alike for a number with one pending and one without, even when the hook refuses", async () => {
      const phone = uniquePhone();
      const supabase = client();
      await supabase.auth.signUp({ phone, password: PASSWORD });
      const first = (await hook.waitFor(phone)).sms.otp;
      await count(
        "UPDATE auth.users SET confirmation_sent_at = now() - interval '2 minutes' WHERE phone = $1 RETURNING 1 AS n",
        [phone],
      );
      const unknown = uniquePhone();
      const resend = async (number: string) => {
        const res = await auth("/resend", {
          method: "POST",
          body: JSON.stringify({ type: "sms", phone: number }),
        });
        return { status: res.status, body: await res.json() };
      };
      hook.answer(() => ({ status: 503 }));
      try {
        expect([await resend(phone), await resend(unknown)]).toEqual([
          { status: 200, body: {} },
          { status: 200, body: {} },
        ]);
        await hook.waitFor(phone, 2);
      } finally {
        hook.answer(undefined);
      }
      expect(hook.messages.filter((m) => m.sms.phone === unknown)).toEqual([]);
      // The refused code was not kept: the first one still confirms the number.
      expect(
        (await supabase.auth.verifyOtp({ phone, token: first, type: "sms" })).error,
      ).toBeNull();
    });

    it("texts a phone user's reauthentication code; asked again within the minute, refuses it as SMS", async () => {
      const { phone, supabase } = await phoneUser();
      expect((await supabase.auth.reauthenticate()).error).toBeNull();
      expect((await hook.waitFor(phone, 2)).sms.otp).toMatch(/^\d{6}$/);
      expect((await supabase.auth.reauthenticate()).error).toMatchObject({
        status: 429,
        code: "over_sms_send_rate_limit",
      });
    });

    it("says in GET /settings that phones are on, through the hook", async () => {
      expect(await (await auth("/settings")).json()).toMatchObject({
        external: { email: true, phone: true },
        phone_autoconfirm: false,
        sms_provider: "hook",
      });
    });

    it("refuses what GoTrue refuses on sign-up and resend, in GoTrue's order", async () => {
      const post = async (path: string, body: object) => {
        const res = await auth(path, { method: "POST", body: JSON.stringify(body) });
        return { status: res.status, ...((await res.json()) as { code: string; msg: string }) };
      };
      expect(await post("/signup", { phone: "123", password: "x" })).toMatchObject({
        status: 422,
        code: "weak_password",
      });
      expect(
        await post("/signup", { phone: "+1555", email: "a@b.example", password: PASSWORD }),
      ).toMatchObject({
        status: 400,
        msg: "Only an email address or phone number should be provided on signup.",
      });
      expect(
        await post("/signup", {
          phone: "+15555550123",
          password: PASSWORD,
          code_challenge: "a".repeat(43),
          code_challenge_method: "s256",
        }),
      ).toMatchObject({ status: 400, msg: "PKCE not supported for phone signups" });
      expect(await post("/signup", { phone: "+0123", password: PASSWORD })).toMatchObject({
        status: 400,
        msg: "Invalid phone number format (E.164 required)",
      });
      // A channel of another type is unreadable JSON, as GoTrue reads a body into typed fields.
      for (const typed of [{ channel: 5 }, { code_challenge: 5 }])
        expect(
          await post("/signup", { phone: "+15555550123", password: PASSWORD, ...typed }),
        ).toMatchObject({ status: 400, code: "bad_json" });
      expect(await post("/resend", { type: "sms" })).toMatchObject({
        status: 400,
        msg: "Type provided requires a phone number",
      });
      expect(await post("/resend", { type: "phone_change" })).toMatchObject({
        status: 400,
        msg: "Missing email address or phone number",
      });
      expect(await post("/resend", { type: "sms", phone: "abc" })).toMatchObject({
        status: 400,
        msg: "Invalid phone number format (E.164 required)",
      });
      expect(
        await post("/token?grant_type=password", { phone: "1", email: "a@b.example" }),
      ).toMatchObject({
        status: 400,
        msg: "Only an email address or phone number should be provided on login.",
      });
    });
  },
  ENV,
);

describeAuthSuite(
  "auth: phones with SMS autoconfirm",
  ({ client }) => {
    it("signs up with a session at once, and changes numbers at once", async () => {
      const phone = uniquePhone();
      const supabase = client();
      const { data, error } = await supabase.auth.signUp({ phone, password: PASSWORD });
      expect(error).toBeNull();
      expect(data.session?.user.phone_confirmed_at).toBeTruthy();
      const again = await client().auth.signUp({ phone, password: PASSWORD });
      expect(again.error).toMatchObject({ status: 422, code: "user_already_exists" });
      const next = uniquePhone();
      const updated = await supabase.auth.updateUser({ phone: next });
      expect(updated.data.user).toMatchObject({ phone: next });
      expect(hook.messages.some((m) => m.sms.phone === phone || m.sms.phone === next)).toBe(false);
    });
  },
  { GOTRUE_EXTERNAL_PHONE_ENABLED: "true", GOTRUE_SMS_AUTOCONFIRM: "true", ...hook.env },
);

describeAuthSuite(
  "auth: phones over the client's budget",
  ({ server }) => {
    it("refuses texted codes beyond the client's budget with GoTrue's over_sms_send_rate_limit", async () => {
      // The budget of one message goes on the sign-up of the number the later calls use.
      const visitor = server.client({ ip: uniqueIp() });
      const phone = uniquePhone();
      expect((await visitor.auth.signUp({ phone, password: PASSWORD })).error).toBeNull();
      const { otp } = (await hook.waitFor(phone)).sms;
      expect((await visitor.auth.verifyOtp({ phone, token: otp, type: "sms" })).error).toBeNull();
      const refused = {
        status: 429,
        code: "over_sms_send_rate_limit",
        message: "SMS rate limit exceeded",
      };
      const answers = [
        await visitor.auth.signInWithOtp({ phone: uniquePhone() }),
        await visitor.auth.signUp({ phone: uniquePhone(), password: PASSWORD }),
        await visitor.auth.resend({ type: "sms", phone }),
        await visitor.auth.resend({ type: "phone_change", phone }),
        await visitor.auth.updateUser({ phone: uniquePhone() }),
        await visitor.auth.reauthenticate(),
      ];
      for (const { error } of answers) expect(error).toMatchObject(refused);
      // An email is still refused in the email's words.
      expect((await visitor.auth.resetPasswordForEmail(uniqueEmail("over"))).error).toMatchObject({
        status: 429,
        code: "over_email_send_rate_limit",
      });
    });
  },
  { GOTRUE_EXTERNAL_PHONE_ENABLED: "true", RATE_LIMIT_EMAIL_IP: "1", ...hook.env },
);

describeAuthSuite("auth: phones switched off", ({ client, confirmedUser }) => {
  it("answers GoTrue's phone_provider_disabled to every phone call", async () => {
    const phone = uniquePhone();
    const refused = { code: "phone_provider_disabled" };
    expect((await client().auth.signUp({ phone, password: PASSWORD })).error).toMatchObject({
      status: 400,
      ...refused,
    });
    expect(
      (await client().auth.signInWithPassword({ phone, password: PASSWORD })).error,
    ).toMatchObject({ status: 422, ...refused });
    expect((await client().auth.resend({ type: "sms", phone })).error).toMatchObject({
      status: 400,
      ...refused,
    });
    const { supabase } = await confirmedUser("no-phones");
    expect((await supabase.auth.updateUser({ phone })).error).toMatchObject({
      status: 422,
      ...refused,
    });
  });
});

// A change of number asked again at the same moment is kept to one text by the database alone: on
// each engine.
describeAuthSuiteEachDatabase(
  "auth: a change of number asked again",
  ({ client }) => {
    const phoneUser = () => signedUpPhone(client);

    it.each([
      ["one after another", false],
      ["at once", true],
    ])(
      "keeps the texted code of a change asked again within the minute (%s): one text, and it works",
      async (_, together) => {
        const { phone, supabase } = await phoneUser();
        const next = uniquePhone();
        const ask = () => supabase.auth.updateUser({ phone: `+${next}` });
        const first = await ask();
        const repeats = together
          ? await Promise.all(Array.from({ length: 5 }, ask))
          : [await ask(), await ask()];
        for (const answer of [first, ...repeats]) {
          expect(answer.error).toBeNull();
          expect(answer.data.user).toMatchObject({ phone, new_phone: next });
        }
        const { otp } = (await hook.waitFor(next)).sms;
        const changed = await supabase.auth.verifyOtp({
          phone: next,
          token: otp,
          type: "phone_change",
        });
        expect(changed.error).toBeNull();
        expect(changed.data.user?.phone).toBe(next);
        expect(hook.messages.filter((m) => m.sms.phone === next)).toHaveLength(1);
      },
    );
  },
  ENV,
);
