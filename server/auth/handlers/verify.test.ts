// POST /verify with an emailed code, texted code or token hash, for every type; the PKCE flow of
// an emailed link (GET /verify, then POST /token?grant_type=pkce); GoTrue's checks in GoTrue's
// order.
import crypto from "node:crypto";
import { decodeJwt } from "jose";
import { afterAll, expect, it } from "vitest";
import { uniqueIp } from "../../../tests/support/api-server.ts";
import { describeAuthSuite } from "../../../tests/support/auth-suite.ts";
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

describeAuthSuite(
  "auth: verify",
  ({ server, client, auth, emailTo, confirmedUser, emailChangeMails }) => {
    it("confirms by the emailed code too (POST /verify), and signs the user in", async () => {
      const email = uniqueEmail("code");
      const supabase = client();
      await supabase.auth.signUp({ email, password: PASSWORD });
      const code = codeIn(await emailTo(email, "Confirm your Revwise account"));
      expect(
        (
          await supabase.auth.verifyOtp({
            email,
            token: "000000" === code ? "111111" : "000000",
            type: "signup",
          })
        ).error,
      ).toMatchObject({ status: 403, code: "otp_expired" });
      const { data, error } = await supabase.auth.verifyOtp({ email, token: code, type: "signup" });
      expect(error).toBeNull();
      expect(data.session?.user.email_confirmed_at).toBeTruthy();
      expect((await supabase.auth.getUser()).data.user?.email).toBe(email);
    });

    it("runs the PKCE flow: the link yields a code that only the verifier can exchange", async () => {
      const email = uniqueEmail("pkce");
      const supabase = server.client({ ip: uniqueIp(), pkce: true });
      await supabase.auth.signUp({
        email,
        password: PASSWORD,
        options: { emailRedirectTo: `${server.url}/` },
      });
      const link = linkIn(await emailTo(email, "Confirm your Revwise account"));
      expect(new URL(link).searchParams.get("token")).toMatch(/^pkce_/);
      const { location } = await followLink(link);
      const code = location.searchParams.get("code")!;
      expect(code).toMatch(/^[0-9a-f-]{36}$/);
      const wrong = await auth("/token?grant_type=pkce", {
        method: "POST",
        body: JSON.stringify({ auth_code: code, code_verifier: "x".repeat(56) }),
      });
      expect((await wrong.json()).code).toBe("bad_code_verifier");
      // The failed attempt consumed the code, as in GoTrue: a new link is needed.
      await supabase.auth.resend({ type: "signup", email });
      const second = await followLink(linkIn(await emailTo(email, "Confirm your Revwise account")));
      expect(second.fragment.get("error_code")).toBe("otp_expired"); // the email was confirmed by the first link
      const signedIn = await supabase.auth.signInWithPassword({ email, password: PASSWORD });
      expect(signedIn.error).toBeNull();

      const other = uniqueEmail("pkce2");
      await supabase.auth.signOut();
      await supabase.auth.signUp({ email: other, password: PASSWORD });
      const otherCode = (
        await followLink(linkIn(await emailTo(other, "Confirm your Revwise account")))
      ).location.searchParams.get("code")!;
      const exchanged = await supabase.auth.exchangeCodeForSession(otherCode);
      expect(exchanged.error).toBeNull();
      expect(exchanged.data.user?.email).toBe(other);
      // The session's method is the flow's: a sign-up's confirmation.
      expect(decodeJwt(exchanged.data.session!.access_token).amr).toEqual([
        { method: "email/signup", timestamp: expect.any(Number) },
      ]);
    });

    it("redirects as GoTrue's verify.go does: a PKCE link's message, code and error in the query too, the query written again in name order", async () => {
      const accepted = new URLSearchParams({
        message:
          "Confirmation link accepted. Please proceed to confirm link sent to the other email",
      }).toString();
      const expired = new URLSearchParams({
        error: "access_denied",
        error_code: "otp_expired",
        error_description: "Email link is invalid or has expired",
      }).toString();
      const back = `${server.url}/back`;
      const changeLinks = async (pkce: boolean) => {
        const { email } = await confirmedUser(pkce ? "pkce-change" : "implicit-change");
        const supabase = server.client({ ip: uniqueIp(), pkce });
        await supabase.auth.signInWithPassword({ email, password: PASSWORD });
        const next = uniqueEmail(pkce ? "pkce-changed" : "implicit-changed");
        const changed = await supabase.auth.updateUser(
          { email: next },
          { emailRedirectTo: `${back}?z=1&a=2` },
        );
        expect(changed.error).toBeNull();
        const { toNew, toCurrent } = await emailChangeMails(email, next);
        return [linkIn(toNew), linkIn(toCurrent)] as const;
      };

      const [first, second] = await changeLinks(true);
      expect(first).toMatch(/token=pkce_/);
      expect((await followLink(first)).location.href).toBe(
        `${back}?a=2&${accepted}&z=1#${accepted}&sb=`,
      );
      const { location } = await followLink(second);
      expect(location.href).toMatch(/\?a=2&code=[0-9a-f-]{36}&z=1$/);
      expect((await followLink(first)).location.href).toBe(
        `${back}?a=2&${expired}&z=1#${expired}&sb=`,
      );

      // The implicit flow: the message in the fragment only, the query still written again.
      const [plain] = await changeLinks(false);
      expect((await followLink(plain)).location.href).toBe(`${back}?a=2&z=1#${accepted}&sb=`);
    });

    it("verifies each email type by code or token hash: signup, invite, magiclink, recovery", async () => {
      const signUp = async (label: string) => {
        const email = uniqueEmail(label);
        await client().auth.signUp({ email, password: PASSWORD });
        return { email, mail: await emailTo(email, "Confirm your Revwise account") };
      };
      // An invitation is confirmed like a sign-up (GoTrue keeps one confirmation token for both).
      const invited = await signUp("invite");
      const asInvite = await client().auth.verifyOtp({
        email: invited.email,
        token: codeIn(invited.mail),
        type: "invite",
      });
      expect(asInvite.error).toBeNull();

      const byHash = await signUp("hash");
      const tokenHash = new URL(linkIn(byHash.mail)).searchParams.get("token")!;
      const confirmed = await client().auth.verifyOtp({ token_hash: tokenHash, type: "signup" });
      expect(confirmed.error).toBeNull();
      expect(confirmed.data.user?.email).toBe(byHash.email);

      const supabase = client();
      await supabase.auth.signInWithOtp({ email: byHash.email });
      const magic = await emailTo(byHash.email, "Your Revwise sign-in link");
      const link = new URL(linkIn(magic)).searchParams.get("token")!;
      // A sign-in link's token is refused as a sign-up confirmation, and stays usable.
      expect(
        (await client().auth.verifyOtp({ token_hash: link, type: "signup" })).error,
      ).toMatchObject({
        status: 403,
        code: "otp_expired",
        message: "Email link is invalid or has expired",
      });
      const signedIn = await supabase.auth.verifyOtp({ token_hash: link, type: "magiclink" });
      expect(signedIn.error).toBeNull();

      await client().auth.resetPasswordForEmail(invited.email);
      const reset = await emailTo(invited.email, "Reset your Revwise password");
      const recovery = await client().auth.verifyOtp({
        email: invited.email,
        token: codeIn(reset),
        type: "recovery",
      });
      expect(recovery.error).toBeNull();
      expect(recovery.data.session?.user.email).toBe(invited.email);
    });

    it("checks in GoTrue's order: type, token or hash, email or phone format, then the token", async () => {
      const post = async (body: object) => {
        const res = await auth("/verify", { method: "POST", body: JSON.stringify(body) });
        return { status: res.status, ...((await res.json()) as { code: string; msg: string }) };
      };
      const invalid = { status: 400, code: "validation_failed" };
      expect(await post({ token: "123456", phone: "x" })).toMatchObject({
        ...invalid,
        msg: "Verify requires a verification type",
      });
      expect(await post({ type: "sms", phone: "x" })).toMatchObject({
        ...invalid,
        msg: "Verify requires either a token or a token hash",
      });
      expect(await post({ type: "sms", token: "1", token_hash: "2" })).toMatchObject({
        ...invalid,
        msg: "Verify requires either a token or a token hash",
      });
      expect(await post({ type: "sms", token: "123456", phone: "+12 34 x" })).toMatchObject({
        ...invalid,
        msg: "Invalid phone number format (E.164 required)",
      });
      expect(await post({ type: "sms", token: "123456", phone: "+1 555 555 0199" })).toMatchObject({
        status: 403,
        code: "otp_expired",
        msg: "Token has expired or is invalid",
      });
      expect(await post({ type: "nonsense", token: "123456", email: "a@b.example" })).toMatchObject(
        {
          status: 403,
          code: "otp_expired",
        },
      );
      expect(await post({ type: "signup", token: "123456", email: "no-at-sign" })).toMatchObject({
        status: 422,
        code: "validation_failed",
        msg: "Invalid email format",
      });
      expect(await post({ type: "signup", token: "123456" })).toMatchObject({
        ...invalid,
        msg: "Only an email address or phone number should be provided on verify",
      });
      expect(
        await post({ type: "signup", token: "123456", email: "a@b.example", phone: "15555550199" }),
      ).toMatchObject({
        ...invalid,
        msg: "Only an email address or phone number should be provided on verify",
      });
      expect(
        await post({ type: "signup", token_hash: "0".repeat(56), email: "a@b.example" }),
      ).toMatchObject({ ...invalid, msg: "Only the token_hash and type should be provided" });
      expect(await post({ type: "sms", token_hash: "0".repeat(56) })).toMatchObject({
        ...invalid,
        msg: "Invalid email verification type",
      });
      expect(await post({ type: "magiclink", token_hash: "0".repeat(56) })).toMatchObject({
        status: 403,
        code: "otp_expired",
        msg: "Email link is invalid or has expired",
      });

      const get = (query: string) => auth(`/verify?${query}`, { redirect: "manual" });
      expect(await (await get("token=x")).json()).toMatchObject({
        msg: "Verify requires a verification type",
      });
      expect(await (await get("type=signup")).json()).toMatchObject({
        msg: "Verify requires a token or a token hash",
      });
      const unsupported = await get("type=sms&token=x");
      expect(unsupported.status).toBe(303);
      const fragment = new URLSearchParams(
        new URL(unsupported.headers.get("location")!).hash.slice(1),
      );
      expect(Object.fromEntries(fragment)).toEqual({
        error: "invalid_request",
        error_code: "validation_failed",
        error_description: "Invalid email verification type",
        sb: "",
      });
    });
  },
);

describeAuthSuite(
  "auth: verify texted codes",
  ({ client, auth }) => {
    it("never lets a texted code confirm an email, and keeps the code usable", async () => {
      const phone = uniquePhone();
      const supabase = client();
      await supabase.auth.signUp({ phone, password: PASSWORD });
      const { otp } = (await hook.waitFor(phone)).sms;
      const hash = crypto
        .createHash("sha224")
        .update(phone + otp)
        .digest("hex");
      const link = await auth(`/verify?type=signup&token=${hash}`, { redirect: "manual" });
      const fragment = new URLSearchParams(new URL(link.headers.get("location")!).hash.slice(1));
      expect(fragment.get("error_code")).toBe("otp_expired");
      const asEmail = await auth("/verify", {
        method: "POST",
        body: JSON.stringify({ type: "signup", token_hash: hash }),
      });
      expect(asEmail.status).toBe(403);
      const { error } = await supabase.auth.verifyOtp({ phone, token: otp, type: "sms" });
      expect(error).toBeNull();
    });
  },
  { GOTRUE_EXTERNAL_PHONE_ENABLED: "true", ...hook.env },
);
