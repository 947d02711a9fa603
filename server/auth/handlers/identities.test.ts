// Identities and the features this service leaves off, each after authentication as in GoTrue:
// linking and unlinking identities (manual linking off, then on: an email account's phone
// identity is unlinked, the last identity never is), and the web3 grant.
import { afterAll, expect, it } from "vitest";
import { describeAuthSuite } from "../../../tests/support/auth-suite.ts";
import { uniquePhone } from "../../../tests/support/auth.ts";
import { startSmsHook } from "../../../tests/support/sms-hook.ts";

const hook = await startSmsHook();
afterAll(() => hook.stop());

const answer = async (res: Response) => ({
  status: res.status,
  ...((await res.json()) as { code: string; error_code: string; msg: string }),
});

describeAuthSuite("auth: identities and switched-off features", ({ auth, confirmedUser }) => {
  it("asks for a signed-in user first, then answers manual_linking_disabled", async () => {
    const { session } = await confirmedUser("no-linking");
    const bearer = { authorization: `Bearer ${session.access_token}` };
    const id = session.user.identities![0]!.identity_id;
    for (const [method, path] of [
      ["GET", "/user/identities/authorize?provider=github"],
      ["DELETE", `/user/identities/${id}`],
    ] as const) {
      expect(await answer(await auth(path, { method }))).toMatchObject({
        status: 401,
        error_code: "no_authorization",
      });
      expect(await answer(await auth(path, { method, headers: bearer }))).toMatchObject({
        status: 404,
        error_code: "manual_linking_disabled",
        msg: "Manual linking is disabled",
      });
    }
  });

  it("answers web3_provider_disabled to the web3 grant", async () => {
    const res = await auth("/token?grant_type=web3", {
      method: "POST",
      body: JSON.stringify({ chain: "solana", message: "m", signature: "s" }),
    });
    expect(await answer(res)).toMatchObject({
      status: 422,
      error_code: "web3_provider_disabled",
      msg: "Web3 provider is disabled",
    });
  });
});

describeAuthSuite(
  "auth: identities with manual linking",
  ({ auth, confirmedUser }) => {
    it("unlinks an email account's phone identity, and never the last identity", async () => {
      const { supabase } = await confirmedUser("unlinks");
      const phone = uniquePhone();
      expect((await supabase.auth.updateUser({ phone })).error).toBeNull();
      const before = await supabase.auth.getUserIdentities();
      expect(before.data?.identities.map((i) => i.provider)).toEqual(["email", "phone"]);
      const [email, phoneIdentity] = before.data!.identities;

      const { data: session } = await supabase.auth.getSession();
      const bearer = { authorization: `Bearer ${session.session!.access_token}` };
      expect(
        await answer(
          await auth("/user/identities/not-a-uuid", { method: "DELETE", headers: bearer }),
        ),
      ).toMatchObject({
        status: 404,
        error_code: "validation_failed",
        msg: "identity_id must be an UUID",
      });
      expect(
        await answer(
          await auth(`/user/identities/${crypto.randomUUID()}`, {
            method: "DELETE",
            headers: bearer,
          }),
        ),
      ).toMatchObject({ status: 422, error_code: "identity_not_found" });

      expect((await supabase.auth.unlinkIdentity(phoneIdentity!)).error).toBeNull();
      const { data } = await supabase.auth.getUser();
      expect(data.user).toMatchObject({
        phone: "",
        app_metadata: { provider: "email", providers: ["email"] },
      });
      expect(data.user?.identities?.map((i) => i.provider)).toEqual(["email"]);

      const last = await supabase.auth.unlinkIdentity(email!);
      expect(last.error).toMatchObject({ status: 422, code: "single_identity_not_deletable" });
      expect((await supabase.auth.getUserIdentities()).data?.identities).toHaveLength(1);
    });

    it("unlinks the email identity: the phone identity's provider becomes the account's", async () => {
      const { supabase } = await confirmedUser("unlinks-email");
      expect((await supabase.auth.updateUser({ phone: uniquePhone() })).error).toBeNull();
      const { data: before } = await supabase.auth.getUserIdentities();
      const email = before!.identities.find((i) => i.provider === "email")!;
      expect((await supabase.auth.unlinkIdentity(email)).error).toBeNull();
      const { data } = await supabase.auth.getUser();
      expect(data.user).toMatchObject({
        email: "",
        app_metadata: { provider: "phone", providers: ["phone"] },
      });
    });

    it("unlinks only with a token of the request's audience", async () => {
      const { session } = await confirmedUser("unlinks-audience");
      const res = await auth(`/user/identities/${session.user.identities![0]!.identity_id}`, {
        method: "DELETE",
        headers: { authorization: `Bearer ${session.access_token}`, "x-jwt-aud": "other" },
      });
      expect(await answer(res)).toMatchObject({
        status: 403,
        error_code: "unexpected_audience",
        msg: "Token audience doesn't match request audience",
      });
    });

    it("links no identity: no external provider is configured", async () => {
      const { session } = await confirmedUser("links");
      const res = await auth("/user/identities/authorize?provider=github", {
        headers: { authorization: `Bearer ${session.access_token}` },
      });
      expect(await answer(res)).toMatchObject({
        status: 400,
        error_code: "validation_failed",
        msg: "Unsupported provider: provider is not enabled",
      });
    });
  },
  {
    GOTRUE_SECURITY_MANUAL_LINKING_ENABLED: "true",
    GOTRUE_EXTERNAL_PHONE_ENABLED: "true",
    GOTRUE_SMS_AUTOCONFIRM: "true",
    ...hook.env,
  },
);
