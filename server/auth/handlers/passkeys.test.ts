// Passkeys through supabase-js (auth.passkey.*, auth.admin.passkey.*) with a software
// authenticator signing real assertions: a passkey added by a signed-in user signs its person in
// (a session with `passkey` in its amr, counters and backup flags kept), is listed, renamed and
// removed; and every forged or stale answer is refused alike: a replayed assertion, another
// origin or relying party, a counter going backwards, a challenge used twice or expired, another
// account's credential. On both engines: a challenge is taken and a counter moved by atomic
// statements that must hold across instances.
import { expect, it } from "vitest";
import {
  describeAuthSuite,
  describeAuthSuiteEachDatabase,
} from "../../../tests/support/auth-suite.ts";
import { PASSWORD } from "../../../tests/support/auth.ts";
import { SoftwareAuthenticator } from "../../../tests/support/software-authenticator.ts";
import { stepAt, totpCode } from "../../../tests/support/totp.ts";

const ORIGIN = "http://localhost:5173";
const PASSKEYS = {
  GOTRUE_PASSKEY_ENABLED: "true",
  GOTRUE_WEBAUTHN_RP_ID: "localhost",
  GOTRUE_WEBAUTHN_RP_ORIGINS: ORIGIN,
  GOTRUE_WEBAUTHN_RP_DISPLAY_NAME: "Revwise",
  GOTRUE_RATE_LIMIT_PASSKEY: "0",
};

const claimsOf = (token: string) =>
  JSON.parse(Buffer.from(token.split(".")[1]!, "base64url").toString()) as {
    aal: string;
    amr: { method: string }[];
    sub: string;
  };

type Options = Parameters<SoftwareAuthenticator["create"]>[0] &
  Parameters<SoftwareAuthenticator["get"]>[0];

describeAuthSuiteEachDatabase(
  "auth: passkeys",
  ({ ctx, server, client, confirmedUser }) => {
    /** A confirmed user with a passkey on a fresh authenticator. */
    async function withPasskey(label: string) {
      const account = await confirmedUser(label);
      const authenticator = new SoftwareAuthenticator(ORIGIN);
      const { data: options, error } = await account.supabase.auth.passkey.startRegistration();
      expect(error).toBeNull();
      const registered = await account.supabase.auth.passkey.verifyRegistration({
        challengeId: options!.challenge_id,
        credential: authenticator.create(options!.options as Options) as never,
      });
      expect(registered.error).toBeNull();
      return { ...account, authenticator, passkeyId: (registered.data as { id: string }).id };
    }

    /** A sign-in's options on a fresh client, and the client. */
    async function signInOptions() {
      const supabase = client();
      const { data, error } = await supabase.auth.passkey.startAuthentication();
      expect(error).toBeNull();
      return { supabase, challengeId: data!.challenge_id, options: data!.options as Options };
    }

    it("adds a passkey that signs its person in, and lists, renames and removes it", async () => {
      const { supabase, session, authenticator, passkeyId } = await withPasskey("passkey");
      const registration = await ctx.db.query<{
        sign_count: string;
        backup_eligible: boolean;
        backed_up: boolean;
        transports: string[];
      }>("SELECT * FROM auth.webauthn_credentials WHERE id = $1", [passkeyId]);
      expect(registration[0]).toMatchObject({
        sign_count: expect.anything(),
        backup_eligible: true,
        backed_up: true,
        transports: ["internal", "hybrid"],
      });

      const { supabase: device, challengeId, options } = await signInOptions();
      expect(options).toMatchObject({ rpId: "localhost", allowCredentials: [] });
      const signedIn = await device.auth.passkey.verifyAuthentication({
        challengeId,
        credential: authenticator.get(options) as never,
      });
      expect(signedIn.error).toBeNull();
      const claims = claimsOf(signedIn.data!.session!.access_token);
      expect(claims).toMatchObject({ sub: session.user.id, aal: "aal1" });
      expect(claims.amr.map((a) => a.method)).toEqual(["passkey"]);
      expect((await device.auth.getUser()).data.user?.id).toBe(session.user.id);
      const [used] = await ctx.db.query<{ sign_count: string; last_used_at: Date | null }>(
        "SELECT sign_count, last_used_at FROM auth.webauthn_credentials WHERE id = $1",
        [passkeyId],
      );
      expect(Number(used!.sign_count)).toBe(1);
      expect(used!.last_used_at).not.toBeNull();

      const listed = await supabase.auth.passkey.list();
      expect(listed.data).toEqual([
        {
          id: passkeyId,
          friendly_name: "Passkey",
          created_at: expect.any(String),
          last_used_at: expect.any(String),
        },
      ]);
      const renamed = await supabase.auth.passkey.update({
        passkeyId,
        friendlyName: "Work laptop",
      });
      expect(renamed.data).toMatchObject({ id: passkeyId, friendly_name: "Work laptop" });
      expect(
        (await supabase.auth.passkey.update({ passkeyId, friendlyName: "x".repeat(121) })).error,
      ).toMatchObject({ status: 400, code: "validation_failed" });
      const admin = server.admin().auth.admin.passkey;
      expect((await admin.listPasskeys({ userId: session.user.id })).data).toEqual([
        expect.objectContaining({ id: passkeyId, friendly_name: "Work laptop" }),
      ]);

      expect((await supabase.auth.passkey.delete({ passkeyId })).error).toBeNull();
      expect((await supabase.auth.passkey.list()).data).toEqual([]);
      const again = await signInOptions();
      expect(
        (
          await again.supabase.auth.passkey.verifyAuthentication({
            challengeId: again.challengeId,
            credential: authenticator.get(again.options) as never,
          })
        ).error,
      ).toMatchObject({ status: 400, code: "webauthn_verification_failed" });
      expect((await supabase.auth.passkey.delete({ passkeyId })).error).toMatchObject({
        status: 404,
      });
    });

    it("refuses replayed, forged and stale answers alike", async () => {
      const { authenticator, session } = await withPasskey("forged");
      const refusedWith = async (code: string, answer: (o: Options) => unknown, id?: string) => {
        const { supabase, challengeId, options } = await signInOptions();
        const { error } = await supabase.auth.passkey.verifyAuthentication({
          challengeId: id ?? challengeId,
          credential: answer(options) as never,
        });
        expect(error).toMatchObject({ status: 400, code });
      };
      const failed = "webauthn_verification_failed";

      // A good sign-in, then its assertion replayed: its challenge is gone, and under a fresh
      // challenge the signature is of the old one.
      const good = await signInOptions();
      const assertion = authenticator.get(good.options);
      expect(
        (
          await good.supabase.auth.passkey.verifyAuthentication({
            challengeId: good.challengeId,
            credential: assertion as never,
          })
        ).error,
      ).toBeNull();
      await refusedWith("webauthn_challenge_not_found", () => assertion, good.challengeId);
      await refusedWith(failed, () => assertion);

      await refusedWith(failed, (o) => authenticator.get(o, { origin: "https://evil.example" }));
      await refusedWith(failed, (o) => authenticator.get(o, { rpId: "evil.example" }));
      // The server counted 1 sign-in: the same count again, and one lower, are refused.
      await refusedWith(failed, (o) => authenticator.get(o, { counter: 1 }));
      await refusedWith(failed, (o) => authenticator.get(o, { counter: 0 }));

      // Another account's passkey naming this account (or the other way round) signs nobody in.
      const other = await withPasskey("other");
      const handleOf = (id: string) => Buffer.from(id).toString("base64url");
      await refusedWith(failed, (o) =>
        other.authenticator.get(o, { userHandle: handleOf(session.user.id) }),
      );
      // An unknown credential answers as a known one does.
      await refusedWith(failed, (o) =>
        new SoftwareAuthenticator(ORIGIN).get(
          o,
          {},
          {
            ...authenticator.credentials[0]!,
            id: Buffer.alloc(32, 7),
          },
        ),
      );

      // A challenge past its time is refused, and gone.
      const stale = await signInOptions();
      await ctx.db.query(
        "UPDATE auth.webauthn_challenges SET expires_at = now() - interval '1 second' WHERE id = $1",
        [stale.challengeId],
      );
      const late = authenticator.get(stale.options);
      const expired = await stale.supabase.auth.passkey.verifyAuthentication({
        challengeId: stale.challengeId,
        credential: late as never,
      });
      expect(expired.error).toMatchObject({ status: 400, code: "webauthn_challenge_expired" });
      await refusedWith("webauthn_challenge_not_found", () => late, stale.challengeId);

      // Still the right authenticator signs in, counting on from where it was.
      const after = await signInOptions();
      const signedIn = await after.supabase.auth.passkey.verifyAuthentication({
        challengeId: after.challengeId,
        credential: authenticator.get(after.options, { counter: 9 }) as never,
      });
      expect(signedIn.error).toBeNull();
    });

    it("takes a challenge once when two answers race, and a registration's only by its user", async () => {
      const { authenticator } = await withPasskey("race");
      const { supabase, challengeId, options } = await signInOptions();
      const answer = authenticator.get(options);
      const results = await Promise.all(
        [0, 1].map(() =>
          supabase.auth.passkey.verifyAuthentication({ challengeId, credential: answer as never }),
        ),
      );
      expect(results.filter((r) => r.error === null)).toHaveLength(1);
      expect(results.find((r) => r.error)?.error).toMatchObject({
        code: "webauthn_challenge_not_found",
      });

      const owner = await confirmedUser("owner");
      const thief = await confirmedUser("thief");
      const { data } = await owner.supabase.auth.passkey.startRegistration();
      const stolen = await thief.supabase.auth.passkey.verifyRegistration({
        challengeId: data!.challenge_id,
        credential: new SoftwareAuthenticator(ORIGIN).create(data!.options as Options) as never,
      });
      expect(stolen.error).toMatchObject({ status: 400, code: "webauthn_challenge_not_found" });
      // The owner's own answer from another origin is refused, and the challenge is spent.
      const authenticator2 = new SoftwareAuthenticator(ORIGIN);
      const { data: second } = await owner.supabase.auth.passkey.startRegistration();
      const wrong = await owner.supabase.auth.passkey.verifyRegistration({
        challengeId: second!.challenge_id,
        credential: authenticator2.create(second!.options as Options, {
          origin: "https://evil.example",
        }) as never,
      });
      expect(wrong.error).toMatchObject({ status: 400, code: "webauthn_verification_failed" });
      expect((await owner.supabase.auth.passkey.list()).data).toEqual([]);
    });

    it("asks for aal2 to add or remove a passkey once the account has a second factor", async () => {
      const { supabase, email, passkeyId } = await withPasskey("mfa");
      const { data } = await supabase.auth.mfa.enroll({ factorType: "totp" });
      const factor = data as { id: string; totp: { secret: string } };
      await supabase.auth.mfa.challengeAndVerify({
        factorId: factor.id,
        code: totpCode(factor.totp.secret, stepAt(Date.now())),
      });
      const aal1 = client();
      await aal1.auth.signInWithPassword({ email, password: PASSWORD });
      const insufficient = { status: 403, code: "insufficient_aal" };
      expect((await aal1.auth.passkey.startRegistration()).error).toMatchObject(insufficient);
      expect((await aal1.auth.passkey.delete({ passkeyId })).error).toMatchObject(insufficient);
      // Renaming is no change of who may sign in: any session of the account may.
      expect(
        (await aal1.auth.passkey.update({ passkeyId, friendlyName: "Phone" })).error,
      ).toBeNull();
      expect((await supabase.auth.passkey.startRegistration()).error).toBeNull();
    });

    it("refuses a suspended account, keeps GoTrue's shapes, and lets the admin remove a passkey", async () => {
      const { session, authenticator, passkeyId } = await withPasskey("banned");
      const admin = server.admin().auth.admin;
      await admin.updateUserById(session.user.id, { ban_duration: "24h" });
      const { supabase, challengeId, options } = await signInOptions();
      expect(
        (
          await supabase.auth.passkey.verifyAuthentication({
            challengeId,
            credential: authenticator.get(options) as never,
          })
        ).error,
      ).toMatchObject({ status: 403, code: "user_banned" });

      const missing = await supabase.auth.passkey.verifyAuthentication({
        challengeId: "not-a-uuid",
        credential: {} as never,
      });
      expect(missing.error).toMatchObject({ status: 400, code: "validation_failed" });
      expect(
        (await admin.passkey.deletePasskey({ userId: session.user.id, passkeyId })).error,
      ).toBeNull();
      expect((await admin.passkey.listPasskeys({ userId: session.user.id })).data).toEqual([]);
      const settings = await (
        await server.fetch(`${server.url}/auth/v1/settings`, {
          headers: { apikey: server.anonKey },
        })
      ).json();
      expect(settings).toMatchObject({ passkeys_enabled: true });
    });
  },
  PASSKEYS,
);

describeAuthSuite("auth: passkeys turned off", ({ auth }) => {
  it("answers GoTrue's 404 on every passkey route", async () => {
    for (const [method, path] of [
      ["POST", "/passkeys/authentication/options"],
      ["POST", "/passkeys/registration/options"],
      ["GET", "/passkeys"],
    ] as const) {
      const res = await auth(path, { method, ...(method === "POST" ? { body: "{}" } : {}) });
      expect(res.status).toBe(404);
      expect(await res.json()).toMatchObject({ code: "passkey_disabled" });
    }
    expect(await (await auth("/settings")).json()).toMatchObject({ passkeys_enabled: false });
  });
});
