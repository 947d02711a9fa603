// POST /token: a password sign-in that reports a weak password; typed fields; grant_type=refresh_token:
// rotation, the reuse window, the end of a session on later reuse; the per-address limit of token
// requests.
import { decodeJwt } from "jose";
import { MIN_PASSWORD_LENGTH } from "../../../common/accounts.ts";
import { expect, it } from "vitest";
import { uniqueIp } from "../../../tests/support/api-server.ts";
import { describeAuthSuite } from "../../../tests/support/auth-suite.ts";
import { PASSWORD, uniqueEmail } from "../../../tests/support/auth.ts";

describeAuthSuite("auth: token", ({ ctx, server, auth, client, confirmedUser }) => {
  it("signs in with a correct password the policy now finds weak, and says why", async () => {
    const admin = server.admin().auth.admin;
    const signIn = async (password: string) => {
      const email = uniqueEmail("weak");
      await admin.createUser({ email, password, email_confirm: true });
      const { data, error } = await client().auth.signInWithPassword({ email, password });
      expect(error).toBeNull();
      return data;
    };
    expect((await signIn("abc")).weakPassword).toEqual({
      message: `Password should be at least ${MIN_PASSWORD_LENGTH} characters.`,
      reasons: ["length"],
    });
    expect((await signIn("password123")).weakPassword).toEqual({
      message: "Password is known to be weak and easy to guess, please choose a different one.",
      reasons: ["pwned"],
    });
    const strong = await signIn(PASSWORD);
    expect(strong.session).toBeTruthy();
    expect(strong).not.toHaveProperty("weakPassword");
  });

  it("reads typed fields as GoTrue does: a password or auth code of another type is bad_json", async () => {
    const { email } = await confirmedUser("typed-grants");
    for (const [grant, body] of [
      ["password", { email, password: 5 }],
      ["password", { email: uniqueEmail("nobody"), password: 5 }],
      ["password", { password: 5 }],
      ["pkce", { auth_code: 5, code_verifier: "x".repeat(56) }],
      ["pkce", { auth_code: crypto.randomUUID(), code_verifier: 5 }],
    ] as const) {
      const res = await auth(`/token?grant_type=${grant}`, {
        method: "POST",
        body: JSON.stringify(body),
      });
      expect([body, res.status, (await res.json()).error_code]).toEqual([body, 400, "bad_json"]);
    }
  });

  it("rotates refresh tokens, lets a concurrent tab reuse within the window, and ends the session on later reuse", async () => {
    const { session } = await confirmedUser("refresh");
    const refresh = (token: string) =>
      auth("/token?grant_type=refresh_token", {
        method: "POST",
        body: JSON.stringify({ refresh_token: token }),
      }).then(async (r) => ({ status: r.status, body: await r.json() }));

    // GoTrue refuses a token shorter than its shortest form before looking it up.
    for (const token of ["", "short"])
      expect(await refresh(token)).toMatchObject({
        status: 400,
        body: { error_code: "validation_failed", msg: "Refresh token is not valid" },
      });
    const first = await refresh(session.refresh_token);
    expect(first.status).toBe(200);
    expect(first.body.refresh_token).not.toBe(session.refresh_token);
    expect(decodeJwt(first.body.access_token).session_id).toBe(
      decodeJwt(session.access_token).session_id,
    );

    // Two tabs refresh with the same token at the same moment: both get the same new token.
    const [a, b] = await Promise.all([
      refresh(first.body.refresh_token),
      refresh(first.body.refresh_token),
    ]);
    expect([a.status, b.status]).toEqual([200, 200]);
    expect(a.body.refresh_token).toBe(b.body.refresh_token);
    const current = a.body.refresh_token as string;

    // The parent of the active token is still honoured just after (the client lost a response).
    expect((await refresh(first.body.refresh_token)).body.refresh_token).toBe(current);

    // Much later, an old token comes back: the whole session ends.
    await ctx.db.query(
      "UPDATE auth.refresh_tokens SET revoked_at = now() - interval '1 minute' WHERE revoked",
    );
    const reused = await refresh(session.refresh_token);
    expect(reused).toMatchObject({ status: 400, body: { code: "refresh_token_already_used" } });
    expect((await refresh(current)).body.code).toBe("refresh_token_not_found");
    const me = await auth("/user", { headers: { authorization: `Bearer ${a.body.access_token}` } });
    expect(me.status).toBe(403);
    expect((await me.json()).code).toBe("session_not_found");
  });

  it("refreshes through supabase-js and keeps the user signed in", async () => {
    const { supabase, session } = await confirmedUser("sdk-refresh");
    const { data, error } = await supabase.auth.refreshSession();
    expect(error).toBeNull();
    expect(data.session!.refresh_token).not.toBe(session.refresh_token);
    expect((await supabase.auth.getUser()).data.user?.id).toBe(session.user.id);
  });

  it("limits token requests per address: bursts of 30, refilled at 150 every 5 minutes", async () => {
    const ip = uniqueIp();
    const statuses: number[] = [];
    // One at a time: the bucket refills one request every 2 s, far longer than these take.
    for (let i = 0; i < 31; i++)
      statuses.push(
        (
          await auth("/token?grant_type=nope", {
            method: "POST",
            headers: { "x-forwarded-for": ip },
            body: "{}",
          })
        ).status,
      );
    expect(statuses.slice(0, 30).every((s) => s === 400)).toBe(true);
    expect(statuses[30]).toBe(429);
  });
});
