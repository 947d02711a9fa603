// Anonymous sign-ins (when enabled): a session for a user without address or identity, marked
// is_anonymous in the User JSON and the token; the user becomes a full one by adding an email
// address (confirmed by its link), and cannot set a password before that.
import { expect, it } from "vitest";
import { describeAuthSuite } from "../../../tests/support/auth-suite.ts";
import { followLink, linkIn, PASSWORD, uniqueEmail } from "../../../tests/support/auth.ts";

const claimsOf = (token: string) =>
  JSON.parse(Buffer.from(token.split(".")[1]!, "base64url").toString()) as {
    is_anonymous: boolean;
    role: string;
    amr: { method: string }[];
  };

describeAuthSuite(
  "auth: anonymous sign-ins",
  ({ auth, client, emailTo }) => {
    it("signs in without an address, then converts by confirming one", async () => {
      const supabase = client();
      const { data, error } = await supabase.auth.signInAnonymously({
        options: { data: { plan: "trial" } },
      });
      expect(error).toBeNull();
      expect(data.user).toMatchObject({
        is_anonymous: true,
        email: "",
        identities: [],
        user_metadata: { plan: "trial" },
      });
      expect(claimsOf(data.session!.access_token)).toMatchObject({
        is_anonymous: true,
        role: "authenticated",
        amr: [{ method: "anonymous" }],
      });
      await supabase.auth.setSession(data.session!);

      const early = await supabase.auth.updateUser({ password: PASSWORD });
      expect(early.error).toMatchObject({ status: 422, code: "validation_failed" });

      const email = uniqueEmail("anon");
      expect((await supabase.auth.updateUser({ email })).error).toBeNull();
      const { fragment } = await followLink(
        linkIn(await emailTo(email, "Confirm your new Revwise email address")),
      );
      const token = fragment.get("access_token")!;
      expect(claimsOf(token).is_anonymous).toBe(false);
      const { data: after } = await supabase.auth.getUser(token);
      expect(after.user).toMatchObject({
        email,
        is_anonymous: false,
        app_metadata: { provider: "email", providers: ["email"] },
      });
      expect(after.user?.identities?.map((i) => i.provider)).toEqual(["email"]);
    });

    it("signs nobody in anonymously for an email of another type", async () => {
      const res = await auth("/signup", {
        method: "POST",
        body: JSON.stringify({ email: 123, password: PASSWORD }),
      });
      expect([res.status, (await res.json()).error_code]).toEqual([400, "bad_json"]);
    });

    it("keeps anonymous users away from second factors", async () => {
      const supabase = client();
      const { data } = await supabase.auth.signInAnonymously();
      const token = data.session!.access_token;
      for (const [method, path] of [
        ["POST", "/factors"],
        ["POST", `/factors/${crypto.randomUUID()}/challenge`],
        ["POST", `/factors/${crypto.randomUUID()}/verify`],
        ["DELETE", `/factors/${crypto.randomUUID()}`],
      ] as const) {
        const res = await auth(path, {
          method,
          body: JSON.stringify({ factor_type: "totp" }),
          headers: { authorization: `Bearer ${token}` },
        });
        expect([path, res.status, await res.json()]).toEqual([
          path,
          403,
          expect.objectContaining({
            error_code: "no_authorization",
            msg: "Anonymous user not allowed to perform these actions",
          }),
        ]);
      }
    });
  },
  { GOTRUE_EXTERNAL_ANONYMOUS_USERS_ENABLED: "true" },
);

describeAuthSuite(
  "auth: anonymous sign-ins with MAILER_AUTOCONFIRM=true",
  ({ client, count }) => {
    it("applies an added email at once, sending nothing, and refuses one that is taken", async () => {
      const supabase = client();
      expect((await supabase.auth.signInAnonymously()).error).toBeNull();
      const email = uniqueEmail("anon-auto");
      const { data, error } = await supabase.auth.updateUser({ email });
      expect(error).toBeNull();
      expect(data.user).toMatchObject({
        email,
        email_confirmed_at: expect.any(String),
        is_anonymous: false,
        app_metadata: { provider: "email", providers: ["email"] },
        identities: [expect.objectContaining({ provider: "email", email })],
      });
      expect(data.user).not.toHaveProperty("new_email");
      expect(
        await count("SELECT count(*)::int AS n FROM mail.outbox WHERE to_address = $1", [email]),
      ).toBe(0);
      expect((await supabase.auth.updateUser({ password: PASSWORD })).error).toBeNull();
      expect(
        (await client().auth.signInWithPassword({ email, password: PASSWORD })).error,
      ).toBeNull();

      const other = client();
      await other.auth.signInAnonymously();
      expect((await other.auth.updateUser({ email })).error).toMatchObject({
        status: 422,
        code: "email_exists",
      });
      expect((await other.auth.getUser()).data.user).toMatchObject({
        email: "",
        is_anonymous: true,
      });
    });
  },
  { GOTRUE_EXTERNAL_ANONYMOUS_USERS_ENABLED: "true", MAILER_AUTOCONFIRM: "true" },
);
