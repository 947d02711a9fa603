// MFA with an authenticator app through supabase-js: enrolment (secret, URI, QR code; the secret
// sealed at rest), challenge and verify with codes computed from the enrolled secret (the session
// becomes aal2 with totp in its amr, its refresh tokens replaced), a code used once, the aal2
// rules for adding and removing factors, expired challenges, and authentication before anything
// else.
import { expect, it } from "vitest";
import { describeAuthSuite } from "../../../tests/support/auth-suite.ts";
import { PASSWORD } from "../../../tests/support/auth.ts";
import { stepAt, totpCode } from "../../../tests/support/totp.ts";

const claimsOf = (token: string) =>
  JSON.parse(Buffer.from(token.split(".")[1]!, "base64url").toString()) as {
    aal: string;
    amr: { method: string }[];
    session_id: string;
  };

describeAuthSuite("auth: MFA (TOTP)", ({ ctx, auth, client, confirmedUser }) => {
  it("enrols, verifies to aal2, refuses a used code, and keeps aal2 rules for other sessions", async () => {
    const { email, supabase } = await confirmedUser("mfa");
    const enrolled = await supabase.auth.mfa.enroll({ factorType: "totp", friendlyName: "Phone" });
    expect(enrolled.error).toBeNull();
    const { id: factorId, totp } = enrolled.data as {
      id: string;
      totp: { qr_code: string; secret: string; uri: string };
    };
    expect(totp.qr_code).toMatch(/^data:image\/svg\+xml;utf-8,<svg/);
    expect(totp.qr_code).not.toContain("#"); // the data: URL would end there
    expect(totp.uri).toMatch(
      new RegExp(
        `^otpauth://totp/127\\.0\\.0\\.1:${encodeURIComponent(email)}\\?secret=${totp.secret}&`,
      ),
    );
    const [stored] = await ctx.db.query<{ secret: string }>(
      "SELECT secret FROM auth.mfa_factors WHERE id = $1",
      [factorId],
    );
    expect(stored!.secret).not.toContain(totp.secret);

    const step = stepAt(Date.now());
    const verified = await supabase.auth.mfa.challengeAndVerify({
      factorId,
      code: totpCode(totp.secret, step),
    });
    expect(verified.error).toBeNull();
    const claims = claimsOf(verified.data!.access_token);
    expect(claims.aal).toBe("aal2");
    expect(claims.amr.map((a) => a.method)).toEqual(["totp", "password"]);
    expect((await supabase.auth.mfa.getAuthenticatorAssuranceLevel()).data).toMatchObject({
      currentLevel: "aal2",
      nextLevel: "aal2",
    });
    expect((await supabase.auth.mfa.listFactors()).data?.totp).toEqual([
      expect.objectContaining({ id: factorId, status: "verified", friendly_name: "Phone" }),
    ]);
    // The code of that step worked once.
    const replay = await supabase.auth.mfa.challengeAndVerify({
      factorId,
      code: totpCode(totp.secret, step),
    });
    expect(replay.error).toMatchObject({ status: 422, code: "mfa_verification_failed" });

    // A new password sign-in is aal1 until its own code; it may not add or remove factors.
    const other = client();
    await other.auth.signInWithPassword({ email, password: PASSWORD });
    expect((await other.auth.mfa.getAuthenticatorAssuranceLevel()).data).toMatchObject({
      currentLevel: "aal1",
      nextLevel: "aal2",
    });
    expect(
      (await other.auth.mfa.enroll({ factorType: "totp", friendlyName: "Second" })).error,
    ).toMatchObject({ status: 403, code: "insufficient_aal" });
    expect((await other.auth.mfa.unenroll({ factorId })).error).toMatchObject({
      status: 422,
      code: "insufficient_aal",
    });
    const wrong = String((Number(totpCode(totp.secret, step + 1)) + 1) % 1_000_000).padStart(
      6,
      "0",
    );
    expect(
      (await other.auth.mfa.challengeAndVerify({ factorId, code: wrong })).error,
    ).toMatchObject({ status: 422, code: "mfa_verification_failed" });
    const raised = await other.auth.mfa.challengeAndVerify({
      factorId,
      code: totpCode(totp.secret, step + 1),
    });
    expect(raised.error).toBeNull();
    expect(claimsOf(raised.data!.access_token).aal).toBe("aal2");
    // The session's refresh tokens were replaced: the sign-in's revoked, the step-up's live.
    const tokens = await ctx.db.query<{ revoked: boolean }>(
      "SELECT revoked FROM auth.refresh_tokens WHERE session_id = $1 ORDER BY id",
      [claimsOf(raised.data!.access_token).session_id],
    );
    expect(tokens.map((t) => t.revoked)).toEqual([true, false]);

    // Removed from an aal2 session: that session is aal1 again, and has no factor.
    expect((await other.auth.mfa.unenroll({ factorId })).error).toBeNull();
    const refreshed = await other.auth.refreshSession();
    const lowered = claimsOf(refreshed.data.session!.access_token);
    expect([lowered.aal, lowered.amr.map((a) => a.method)]).toEqual(["aal1", ["password"]]);
    expect((await other.auth.mfa.listFactors()).data?.all).toEqual([]);
  });

  it("drops the unverified factors of a type once one of it verifies, and expired ones whoever enrols", async () => {
    const { supabase } = await confirmedUser("mfa-cleanup");
    const enrol = async (friendlyName: string) =>
      (await supabase.auth.mfa.enroll({ factorType: "totp", friendlyName })).data as {
        id: string;
        totp: { secret: string };
      };
    const abandoned = await enrol("Old phone");
    const kept = await enrol("New phone");
    const verified = await supabase.auth.mfa.challengeAndVerify({
      factorId: kept.id,
      code: totpCode(kept.totp.secret, stepAt(Date.now())),
    });
    expect(verified.error).toBeNull();
    expect((await supabase.auth.getUser()).data.user?.factors?.map((f) => f.id)).toEqual([kept.id]);
    expect(abandoned.id).not.toBe(kept.id);

    // An unverified factor never challenged expires after five minutes, whoever enrols next.
    const { supabase: other } = await confirmedUser("mfa-cleanup-other");
    const stale = (await other.auth.mfa.enroll({ factorType: "totp" })).data!;
    await ctx.db.query(
      "UPDATE auth.mfa_factors SET created_at = now() - interval '301 seconds' WHERE id = $1",
      [stale.id],
    );
    expect(
      (await supabase.auth.mfa.enroll({ factorType: "totp", friendlyName: "Spare" })).error,
    ).toBeNull();
    expect(await ctx.db.query("SELECT id FROM auth.mfa_factors WHERE id = $1", [stale.id])).toEqual(
      [],
    );
  });

  it("refuses an expired challenge, and a factor that is not the user's", async () => {
    const { supabase } = await confirmedUser("mfa-expiry");
    const { data } = await supabase.auth.mfa.enroll({ factorType: "totp" });
    const { id: factorId, totp } = data as { id: string; totp: { secret: string } };
    const challenge = await supabase.auth.mfa.challenge({ factorId });
    expect(challenge.error).toBeNull();
    await ctx.db.query(
      "UPDATE auth.mfa_challenges SET created_at = now() - interval '301 seconds' WHERE id = $1",
      [challenge.data!.id],
    );
    const expired = await supabase.auth.mfa.verify({
      factorId,
      challengeId: challenge.data!.id,
      code: totpCode(totp.secret, stepAt(Date.now())),
    });
    expect(expired.error).toMatchObject({ status: 422, code: "mfa_challenge_expired" });

    const { supabase: stranger } = await confirmedUser("mfa-stranger");
    expect((await stranger.auth.mfa.challenge({ factorId })).error).toMatchObject({
      status: 404,
      code: "mfa_factor_not_found",
    });
  });

  it("answers GoTrue's codes in GoTrue's order for names, types, ids, codes and challenges", async () => {
    const { session } = await confirmedUser("mfa-order");
    const as = (path: string, body?: object, method = "POST") =>
      auth(path, {
        method,
        ...(body && { body: JSON.stringify(body) }),
        headers: { authorization: `Bearer ${session.access_token}` },
      });
    const answer = async (res: Response) => [res.status, await res.json()] as const;
    const enrol = (friendly_name?: string) =>
      as("/factors", { factor_type: "totp", ...(friendly_name && { friendly_name }) });

    expect(await answer(await as("/factors", { factor_type: "webauthn" }))).toEqual([
      422,
      expect.objectContaining({ error_code: "mfa_webauthn_enroll_not_enabled" }),
    ]);
    // A field of another type is unreadable JSON, as GoTrue reads a body into typed fields.
    for (const body of [{ factor_type: 5 }, { factor_type: "totp", friendly_name: 5 }])
      expect((await answer(await as("/factors", body)))[1]).toMatchObject({
        error_code: "bad_json",
      });
    // A name is the user's once, the empty one too, until an unverified factor expires.
    const first = (await (await enrol()).json()) as { id: string };
    expect(await answer(await enrol())).toEqual([
      422,
      expect.objectContaining({
        error_code: "mfa_factor_name_conflict",
        msg: 'A factor with the friendly name "" for this user already exists',
      }),
    ]);
    expect((await enrol("Laptop")).status).toBe(200);
    expect((await answer(await enrol("Laptop")))[1]).toMatchObject({
      error_code: "mfa_factor_name_conflict",
    });
    await ctx.db.query(
      "UPDATE auth.mfa_factors SET created_at = now() - interval '301 seconds' WHERE id = $1",
      [first.id],
    );
    const again = (await (await enrol()).json()) as { id: string };
    expect(again.id).not.toBe(first.id);

    for (const path of ["/factors/not-a-uuid/challenge", "/factors/not-a-uuid/verify"])
      expect(await answer(await as(path, {}))).toEqual([
        404,
        expect.objectContaining({
          error_code: "validation_failed",
          msg: "factor_id must be an UUID",
        }),
      ]);
    expect((await answer(await as("/factors/not-a-uuid", undefined, "DELETE")))[0]).toBe(404);

    const verify = (body: object) => as(`/factors/${again.id}/verify`, body);
    const challenge = (await (await as(`/factors/${again.id}/challenge`, {})).json()) as {
      id: string;
    };
    // The body is read as GoTrue's typed fields first (a challenge_id that is no UUID is
    // unreadable JSON), then an empty code is refused before the challenge is looked at.
    for (const body of [
      { challenge_id: "nope", code: "" },
      { challenge_id: 7, code: "123456" },
      { challenge_id: challenge.id, code: 123456 },
    ])
      expect((await answer(await verify(body)))[1]).toMatchObject({ error_code: "bad_json" });
    expect(await answer(await verify({ code: "" }))).toEqual([
      400,
      expect.objectContaining({
        error_code: "validation_failed",
        msg: "Code needs to be non-empty",
      }),
    ]);
    for (const body of [{ code: "123456" }, { challenge_id: crypto.randomUUID(), code: "123456" }])
      expect(await answer(await verify(body))).toEqual([
        422,
        expect.objectContaining({
          error_code: "mfa_factor_not_found",
          msg: "MFA factor with the provided challenge ID not found",
        }),
      ]);
    expect((await verify({ challenge_id: challenge.id, code: "000000" })).status).toBe(422);
  });

  it("asks for a signed-in user before anything else", async () => {
    const res = await auth("/factors", {
      method: "POST",
      body: JSON.stringify({ factor_type: "totp" }),
    });
    expect(res.status).toBe(401);
    expect(await res.json()).toMatchObject({ error_code: "no_authorization" });
    const { session } = await confirmedUser("mfa-phone");
    const phone = await auth("/factors", {
      method: "POST",
      body: JSON.stringify({ factor_type: "phone", phone: "+15555550100" }),
      headers: { authorization: `Bearer ${session.access_token}` },
    });
    expect(phone.status).toBe(422);
    expect(await phone.json()).toMatchObject({ error_code: "mfa_phone_enroll_not_enabled" });
  });
});
