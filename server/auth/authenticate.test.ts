// The bearer token of the user endpoints: what is refused and how.
import { decodeJwt, SignJWT } from "jose";
import { expect, it } from "vitest";
import { TEST_JWT_SECRET } from "../../tests/support/app.ts";
import { describeAuthSuite } from "../../tests/support/auth-suite.ts";

describeAuthSuite("auth: bearer tokens", ({ ctx, server, auth, confirmedUser }) => {
  it("verifies tokens strictly: missing, forged, expired, alg none, other secrets and the anon key are refused", async () => {
    const { session } = await confirmedUser("tokens");
    const claims = decodeJwt(session.access_token);
    const sign = (secret: string, payload: object, exp = Math.floor(Date.now() / 1000) + 600) =>
      new SignJWT(payload as Record<string, unknown>)
        .setProtectedHeader({ alg: "HS256" })
        .setIssuedAt()
        .setExpirationTime(exp)
        .setIssuer(`${server.url}/auth/v1`)
        .sign(new TextEncoder().encode(secret));
    const user = (token?: string) =>
      auth("/user", { headers: token ? { authorization: `Bearer ${token}` } : {} }).then(
        async (r) => ({ status: r.status, code: (await r.json()).code }),
      );
    const message = (token: string) =>
      auth("/user", { headers: { authorization: `Bearer ${token}` } }).then(
        async (r) => (await r.json()).msg as string,
      );

    expect(await user()).toEqual({ status: 401, code: "no_authorization" });
    expect(await user("not-a-jwt")).toEqual({ status: 403, code: "bad_jwt" });
    expect(await user(await sign("a-completely-different-secret-value-123", claims))).toEqual({
      status: 403,
      code: "bad_jwt",
    });
    expect(
      await user(await sign(TEST_JWT_SECRET, claims, Math.floor(Date.now() / 1000) - 10)),
    ).toEqual({ status: 403, code: "bad_jwt" });
    const [, payload] = session.access_token.split(".");
    const none = `${Buffer.from(JSON.stringify({ alg: "none", typ: "JWT" })).toString("base64url")}.${payload}.`;
    expect(await user(none)).toEqual({ status: 403, code: "bad_jwt" });
    const tampered = session.access_token.replace(
      /\.([^.]+)\./,
      (_m, p: string) =>
        `.${Buffer.from(JSON.stringify({ ...JSON.parse(Buffer.from(p, "base64url").toString()), role: "service_role" })).toString("base64url")}.`,
    );
    expect(await user(tampered)).toEqual({ status: 403, code: "bad_jwt" });
    expect(await user(server.anonKey)).toEqual({ status: 403, code: "bad_jwt" });
    // An API key is ours but names no user, as GoTrue says; a forged one is just unverifiable.
    expect(await message(server.anonKey)).toBe("invalid claim: missing sub claim");
    expect(await message(`${server.anonKey.slice(0, -2)}xx`)).toBe(
      "invalid JWT: unable to parse or verify signature",
    );
    expect(
      (await user(await sign(TEST_JWT_SECRET, { ...claims, session_id: crypto.randomUUID() })))
        .code,
    ).toBe("session_not_found");
    expect(await user(session.access_token)).toEqual({ status: 200, code: undefined });
  });

  it("names the claim as GoTrue does: a sub that is no UUID is 400, a token not valid yet says so", async () => {
    const { session } = await confirmedUser("claims");
    const claims = decodeJwt(session.access_token);
    const sign = (payload: object) =>
      new SignJWT(payload as Record<string, unknown>)
        .setProtectedHeader({ alg: "HS256" })
        .setIssuedAt()
        .setExpirationTime("10m")
        .setIssuer(`${server.url}/auth/v1`)
        .sign(new TextEncoder().encode(TEST_JWT_SECRET));
    const answer = async (token: string) => {
      const r = await auth("/user", { headers: { authorization: `Bearer ${token}` } });
      const { code, msg } = (await r.json()) as { code: string; msg: string };
      return { status: r.status, code, msg };
    };
    expect(await answer(await sign({ ...claims, sub: "not-a-uuid" }))).toEqual({
      status: 400,
      code: "bad_jwt",
      msg: "invalid claim: sub claim must be a UUID",
    });
    const notYet = await sign({ ...claims, nbf: Math.floor(Date.now() / 1000) + 300 });
    expect(await answer(notYet)).toEqual({
      status: 403,
      code: "bad_jwt",
      msg: "invalid JWT: unable to parse or verify signature, token has invalid claims: token is not valid yet",
    });
  });

  it("looks the user up before the session: a deleted user's token is user_not_found", async () => {
    const { session } = await confirmedUser("deleted");
    expect((await server.admin().auth.admin.deleteUser(session.user.id)).error).toBeNull();
    const res = await auth("/user", {
      headers: { authorization: `Bearer ${session.access_token}` },
    });
    expect([res.status, await res.json()]).toEqual([
      403,
      expect.objectContaining({
        error_code: "user_not_found",
        msg: "User from sub claim in JWT does not exist",
      }),
    ]);
  });

  it("answers GET /user only for a token of the request's audience (X-JWT-AUD, else its own)", async () => {
    const { session } = await confirmedUser("audience");
    const claims = decodeJwt(session.access_token);
    const signed = (payload: object) =>
      new SignJWT(payload as Record<string, unknown>)
        .setProtectedHeader({ alg: "HS256" })
        .sign(new TextEncoder().encode(TEST_JWT_SECRET));
    const user = (token: string, headers: Record<string, string> = {}) =>
      auth("/user", { headers: { authorization: `Bearer ${token}`, ...headers } }).then(
        async (r) => [r.status, await r.json()] as const,
      );
    const mismatch = [
      400,
      expect.objectContaining({
        error_code: "validation_failed",
        msg: "Token audience doesn't match request audience",
      }),
    ];
    // The request's audience is the X-JWT-AUD header's, else the token's own, else the default.
    expect((await user(await signed({ ...claims, aud: "other" })))[0]).toBe(200);
    expect(await user(session.access_token, { "x-jwt-aud": "other" })).toEqual(mismatch);
    expect((await user(session.access_token, { "x-jwt-aud": "authenticated" }))[0]).toBe(200);
    expect(await user(await signed({ ...claims, aud: undefined }))).toEqual(mismatch);
    expect(await user(await signed({ ...claims, aud: "" }))).toEqual(mismatch);
    // An admin role's token is held to the default audience, whatever its own.
    expect(await user(await signed({ ...claims, aud: "other", role: "service_role" }))).toEqual(
      mismatch,
    );
  });

  it("refuses a banned user's token with user_banned", async () => {
    const { email, session } = await confirmedUser("banned");
    await ctx.db.query(
      "UPDATE auth.users SET banned_until = now() + interval '1 hour' WHERE email = $1",
      [email],
    );
    const res = await auth("/user", {
      headers: { authorization: `Bearer ${session.access_token}` },
    });
    expect(res.status).toBe(403);
    expect(await res.json()).toMatchObject({ code: "user_banned" });
  });
});
