// POST /otp: sign-in links and codes by email (implicit and PKCE), codes by text message through a
// real Send SMS hook, create_user, and what /otp answers for unknown addresses.
import { afterAll, expect, it } from "vitest";
import { uniqueIp } from "../../../tests/support/api-server.ts";
import {
  describeAuthSuite,
  describeAuthSuiteEachDatabase,
  type AuthSuite,
} from "../../../tests/support/auth-suite.ts";
import {
  codeIn,
  followLink,
  linkIn,
  PASSWORD,
  uniqueEmail,
  uniquePhone,
} from "../../../tests/support/auth.ts";
import { startSmsHook } from "../../../tests/support/sms-hook.ts";

const hook = await startSmsHook();
afterAll(() => hook.stop());
const ENV = { GOTRUE_EXTERNAL_PHONE_ENABLED: "true", ...hook.env };

/** Requests with phone numbers over the suite's server. */
function phoneRequests({ server, client, count }: Pick<AuthSuite, "server" | "client" | "count">) {
  /** A POST that resolves with its answer, not waiting for the work the answer leaves behind. */
  const postOnly = (path: string, body: object) =>
    fetch(`${server.url}/auth/v1${path}`, {
      method: "POST",
      headers: {
        apikey: server.anonKey,
        "content-type": "application/json",
        "x-forwarded-for": uniqueIp(),
      },
      body: JSON.stringify(body),
    });

  /** A number with an account (not confirmed yet), its first code, and its minute passed. */
  async function knownNumber() {
    const phone = uniquePhone();
    expect((await client().auth.signInWithOtp({ phone })).error).toBeNull();
    const { otp } = (await hook.waitFor(phone)).sms;
    await count(
      "UPDATE auth.users SET confirmation_sent_at = now() - interval '2 minutes' WHERE phone = $1 RETURNING 1 AS n",
      [phone],
    );
    return { phone, otp };
  }

  return { postOnly, knownNumber };
}

const SIGN_IN = "Your Revwise sign-in link";

describeAuthSuite(
  "auth: passwordless sign-in",
  ({ server, client, auth, emailTo, confirmedUser, count }) => {
    it("signs a new address up and in by the emailed link, with its data", async () => {
      const email = uniqueEmail("magic-new");
      const supabase = client();
      const { error } = await supabase.auth.signInWithOtp({
        email,
        options: { data: { name: "Ada" }, emailRedirectTo: `${server.url}/welcome` },
      });
      expect(error).toBeNull();
      const mail = await emailTo(email, SIGN_IN);
      expect(mail.text).toContain("Signing in creates your account.");
      const { status, location, fragment } = await followLink(linkIn(mail));
      expect(status).toBe(303);
      expect(location.pathname).toBe("/welcome");
      expect(fragment.get("type")).toBe("signup");
      const { data } = await supabase.auth.getUser(fragment.get("access_token")!);
      expect(data.user).toMatchObject({ email, user_metadata: { name: "Ada" } });
      expect(data.user?.email_confirmed_at).toBeTruthy();
    });

    it("signs an existing account in by the emailed code (type email), once", async () => {
      const { email } = await confirmedUser("magic-code");
      const supabase = client();
      expect((await supabase.auth.signInWithOtp({ email })).error).toBeNull();
      const mail = await emailTo(email, SIGN_IN);
      expect(mail.text).toContain("asked to sign in to your Revwise account");
      const token = codeIn(mail);
      const { data, error } = await supabase.auth.verifyOtp({ email, token, type: "email" });
      expect(error).toBeNull();
      expect(data.session?.user.email).toBe(email);
      expect(data.session?.user.app_metadata).toMatchObject({ provider: "email" });
      const again = await client().auth.verifyOtp({ email, token, type: "email" });
      expect(again.error).toMatchObject({ status: 403, code: "otp_expired" });
    });

    it("signs in by a magic link with PKCE: the link yields a code for this client only", async () => {
      const { email } = await confirmedUser("magic-pkce");
      const supabase = server.client({ ip: uniqueIp(), pkce: true });
      await supabase.auth.signInWithOtp({ email, options: { emailRedirectTo: `${server.url}/` } });
      const link = linkIn(await emailTo(email, SIGN_IN));
      expect(new URL(link).searchParams.get("type")).toBe("magiclink");
      expect(new URL(link).searchParams.get("token")).toMatch(/^pkce_/);
      const code = (await followLink(link)).location.searchParams.get("code")!;
      const { data, error } = await supabase.auth.exchangeCodeForSession(code);
      expect(error).toBeNull();
      expect(data.user?.email).toBe(email);
      expect(data.session?.user.aud).toBe("authenticated");
    });

    it("sends the same sign-in link from GoTrue's older POST /magiclink", async () => {
      const { email } = await confirmedUser("older");
      const res = await auth("/magiclink", { method: "POST", body: JSON.stringify({ email }) });
      expect(res.status).toBe(200);
      expect(await res.json()).toEqual({});
      const { fragment } = await followLink(linkIn(await emailTo(email, SIGN_IN)));
      expect(fragment.get("type")).toBe("magiclink");
      expect(fragment.get("access_token")).toBeTruthy();
      const missing = await auth("/magiclink", { method: "POST", body: "{}" });
      expect(missing.status).toBe(422);
      expect(await missing.json()).toMatchObject({
        code: "validation_failed",
        msg: "Password recovery requires an email",
      });
    });

    it("answers create_user false for an unknown address as for an account, and sends nothing", async () => {
      const email = uniqueEmail("nobody");
      const res = await auth("/otp", {
        method: "POST",
        body: JSON.stringify({ email, create_user: false }),
      });
      expect({ status: res.status, body: await res.json() }).toEqual({ status: 200, body: {} });
      expect(
        (await client().auth.signInWithOtp({ email, options: { shouldCreateUser: false } })).error,
      ).toBeNull();
      expect(
        await count("SELECT count(*)::int AS n FROM mail.outbox WHERE to_address = $1", [email]),
      ).toBe(0);
      expect(
        await count("SELECT count(*)::int AS n FROM auth.users WHERE email = $1", [email]),
      ).toBe(0);
      const { email: known } = await confirmedUser("known");
      expect(
        (await client().auth.signInWithOtp({ email: known, options: { shouldCreateUser: false } }))
          .error,
      ).toBeNull();
      await emailTo(known, SIGN_IN);
    });

    it("refuses what GoTrue refuses, in GoTrue's order", async () => {
      const post = async (body: object) => {
        const res = await auth("/otp", { method: "POST", body: JSON.stringify(body) });
        return { status: res.status, ...((await res.json()) as { code: string; msg: string }) };
      };
      expect(await post({ email: "a@b.example", phone: "+15555550100" })).toMatchObject({
        status: 400,
        msg: "Only an email address or phone number should be provided",
      });
      expect(await post({ email: "a@b.example", channel: "sms" })).toMatchObject({
        status: 400,
        msg: "Channel should only be specified with Phone OTP",
      });
      expect(await post({ email: "a@b.example", code_challenge: "x" })).toMatchObject({
        status: 400,
        code: "validation_failed",
      });
      expect(await post({})).toMatchObject({
        status: 400,
        msg: "One of email or phone must be set",
      });
      expect(await post({ email: "not-an-address" })).toMatchObject({
        status: 400,
        code: "validation_failed",
      });
      expect(await post({ phone: "12" + "3".repeat(20) })).toMatchObject({
        status: 400,
        msg: "Invalid phone number format (E.164 required)",
      });
      expect(await post({ phone: "+15555550100", channel: "pigeon" })).toMatchObject({
        status: 200,
      });
    });

    it("texts a code through the hook that signs a new number up and in (type sms)", async () => {
      const phone = uniquePhone();
      const supabase = client();
      const sent = await supabase.auth.signInWithOtp({
        phone: `+${phone}`,
        options: { data: { name: "Grace" } },
      });
      expect(sent.error).toBeNull();
      const message = await hook.waitFor(phone);
      expect(message.sms.otp).toMatch(/^\d{6}$/);
      expect(message.user).toMatchObject({ phone, user_metadata: { name: "Grace" } });
      const wrong = await supabase.auth.verifyOtp({
        phone,
        token: message.sms.otp === "000000" ? "111111" : "000000",
        type: "sms",
      });
      expect(wrong.error).toMatchObject({ status: 403, code: "otp_expired" });
      const { data, error } = await supabase.auth.verifyOtp({
        phone: `+${phone}`,
        token: message.sms.otp,
        type: "sms",
      });
      expect(error).toBeNull();
      expect(data.session?.user).toMatchObject({
        phone,
        app_metadata: { provider: "phone", providers: ["phone"] },
      });
      expect(data.session?.user.phone_confirmed_at).toBeTruthy();
      expect(data.session?.user.identities?.[0]).toMatchObject({
        provider: "phone",
        identity_data: { phone, phone_verified: true },
      });
    });

    it("takes the whatsapp channel, and texts a number at most once a minute", async () => {
      const phone = uniquePhone();
      const supabase = client();
      await supabase.auth.signInWithOtp({ phone });
      const first = await hook.waitFor(phone);
      await supabase.auth.verifyOtp({ phone, token: first.sms.otp, type: "sms" });
      await client().auth.signInWithOtp({ phone, options: { channel: "whatsapp" } });
      // Within the minute of the last code, a request is answered alike and sends nothing.
      const again = await client().auth.signInWithOtp({ phone });
      expect(again.error).toBeNull();
      await hook.waitFor(phone, 1);
      expect(hook.messages.filter((m) => m.sms.phone === phone)).toHaveLength(1);
      const signedIn = await client().auth.signInWithPassword({ phone, password: PASSWORD });
      expect(signedIn.error).toMatchObject({ status: 400, code: "invalid_credentials" });
    });

    const { postOnly, knownNumber } = phoneRequests({ server, client, count });

    const refusingHook = () =>
      hook.answer(() => ({
        status: 200,
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ error: { http_code: 429, message: "Too many messages" } }),
      }));

    it("answers alike when the hook refuses a new number's code, and keeps neither code nor user", async () => {
      const phone = uniquePhone();
      refusingHook();
      try {
        expect((await client().auth.signInWithOtp({ phone })).error).toBeNull();
        await hook.waitFor(phone);
      } finally {
        hook.answer(undefined);
      }
      expect(
        await count("SELECT count(*)::int AS n FROM auth.users WHERE phone = $1", [phone]),
      ).toBe(0);
    });

    it("answers create_user false alike for a number with an account and one without, even when the hook refuses", async () => {
      const known = await knownNumber();
      const unknown = uniquePhone();
      const ask = async (phone: string) => {
        const res = await auth("/otp", {
          method: "POST",
          body: JSON.stringify({ phone, create_user: false }),
        });
        return { status: res.status, body: await res.json() };
      };
      refusingHook();
      try {
        expect([await ask(known.phone), await ask(unknown)]).toEqual([
          { status: 200, body: {} },
          { status: 200, body: {} },
        ]);
        // The account's code was asked of the hook, which refused it: nothing of it is kept, so
        // the number's first code still signs in.
        await hook.waitFor(known.phone, 2);
      } finally {
        hook.answer(undefined);
      }
      expect(hook.messages.filter((m) => m.sms.phone === unknown)).toEqual([]);
      const { error } = await client().auth.verifyOtp({
        phone: known.phone,
        token: known.otp,
        type: "sms",
      });
      expect(error).toBeNull();
    });

    it("answers before the hook is through, so an account costs the answer no time; the code arrives after", async () => {
      const { phone } = await knownNumber();
      let release = () => {};
      const held = new Promise<void>((resolve) => (release = resolve));
      hook.answer(() => ({ status: 204, until: held }));
      try {
        const answer = postOnly("/otp", { phone, create_user: false });
        // Held, the hook never answers before the request does unless the request waits for it:
        // then this side gives up 3 s after the hook got its message.
        const first = await Promise.race([
          answer.then(() => "the answer"),
          hook
            .waitFor(phone, 2)
            .then(() => new Promise((resolve) => setTimeout(resolve, 3000)))
            .then(() => "the hook's message, held 3 s"),
        ]);
        release();
        expect(first).toBe("the answer");
        expect([(await answer).status, await (await answer).json()]).toEqual([200, {}]);
      } finally {
        release();
        hook.answer(undefined);
      }
      const code = (await hook.waitFor(phone, 2)).sms.otp;
      await server.app.afterAnswer.idle();
      const { data, error } = await client().auth.verifyOtp({ phone, token: code, type: "sms" });
      expect(error).toBeNull();
      expect(data.session?.user.phone).toBe(phone);
    });

    it("stores a code before its message goes, so a code that arrives works at once", async () => {
      const { phone } = await knownNumber();
      let release = () => {};
      const held = new Promise<void>((resolve) => (release = resolve));
      hook.answer(() => ({ status: 204, until: held }));
      try {
        expect((await postOnly("/otp", { phone })).status).toBe(200);
        const code = (await hook.waitFor(phone, 2)).sms.otp;
        // The hook has the message and has not answered yet.
        const res = await postOnly("/verify", { type: "sms", phone, token: code });
        expect(res.status).toBe(200);
      } finally {
        release();
        hook.answer(undefined);
      }
    });
  },
  ENV,
);

describeAuthSuite("auth: passwordless sign-in without phones", ({ client }) => {
  it("answers a phone with GoTrue's phone_provider_disabled", async () => {
    const { error } = await client().auth.signInWithOtp({ phone: uniquePhone() });
    expect(error).toMatchObject({ status: 400, code: "phone_provider_disabled" });
  });
});

describeAuthSuite(
  "auth: passwordless sign-in by phone without a hook",
  ({ server, client }) => {
    it("keeps the text message in the dev mailbox, with its channel and a code that signs in", async () => {
      const phone = uniquePhone();
      const supabase = client();
      const sent = await supabase.auth.signInWithOtp({ phone, options: { channel: "whatsapp" } });
      expect(sent.error).toBeNull();
      const page = await (await fetch(`${server.url}/_dev/mailbox`)).text();
      const row = new RegExp(
        `Your Revwise code is (\\d{6})[^<]*</td><td>\\+${phone}</td><td>whatsapp`,
      );
      const token = row.exec(page)?.[1];
      expect(token).toMatch(/^\d{6}$/);
      const { data, error } = await supabase.auth.verifyOtp({ phone, token: token!, type: "sms" });
      expect(error).toBeNull();
      expect(data.session?.user.phone).toBe(phone);
    });
  },
  { GOTRUE_EXTERNAL_PHONE_ENABLED: "true", DEV_MAILBOX: "true" },
);

// Two requests for one number at the same moment are kept to one code by the database alone: on
// each engine.
describeAuthSuiteEachDatabase(
  "auth: passwordless sign-in asked twice at once",
  ({ server, client, count }) => {
    const { postOnly, knownNumber } = phoneRequests({ server, client, count });

    it("texts one code for two requests at the same time", async () => {
      const { phone } = await knownNumber();
      const answers = await Promise.all([postOnly("/otp", { phone }), postOnly("/otp", { phone })]);
      expect(answers.map((a) => a.status)).toEqual([200, 200]);
      await server.app.afterAnswer.idle();
      const second = (await hook.waitFor(phone, 2)).sms.otp;
      expect(hook.messages.filter((m) => m.sms.phone === phone)).toHaveLength(2);
      const { error } = await client().auth.verifyOtp({ phone, token: second, type: "sms" });
      expect(error).toBeNull();
    });
  },
  ENV,
);
