// The auth service through the real supabase-js client, reading emails from a real SMTP server:
// sign-up → email → verify → sign-in → user → refresh (rotation, reuse window, reuse) → sign-out
// scopes → recovery → new password; PKCE; email change; hostile input.
import { createClient } from "@supabase/supabase-js";
import { decodeJwt, SignJWT } from "jose";
import { afterAll, beforeAll, expect, it } from "vitest";
import { startApiServer, uniqueIp, type ApiServer } from "../../tests/support/api-server.ts";
import { TEST_JWT_SECRET } from "../../tests/support/app.ts";
import {
  codeIn,
  emailTo,
  followLink,
  linkIn,
  PASSWORD,
  uniqueEmail,
} from "../../tests/support/auth.ts";
import { describeEachDatabase } from "../../tests/support/databases.ts";
import { addressOf, startSmtp, type TestSmtp } from "../../tests/support/smtp.ts";

describeEachDatabase("auth service", (ctx) => {
  let server: ApiServer;
  let smtp: TestSmtp;
  beforeAll(async () => {
    smtp = await startSmtp();
    server = await startApiServer(ctx.db, {
      env: { SMTP_URL: smtp.url, RATE_LIMIT_EMAIL_SENT: "100000" },
    });
  });
  afterAll(async () => {
    await server.close();
    await smtp.stop();
  });

  const client = () => server.client({ ip: uniqueIp() });
  const auth = (path: string, init: RequestInit & { headers?: Record<string, string> } = {}) =>
    fetch(`${server.url}/auth/v1${path}`, {
      ...init,
      headers: {
        apikey: server.anonKey,
        "content-type": "application/json",
        "x-forwarded-for": uniqueIp(),
        "x-supabase-api-version": "2024-01-01",
        ...init.headers,
      },
    });

  /** A confirmed account, signed in on a fresh client. */
  async function confirmedUser(label = "user", email = uniqueEmail(label)) {
    const supabase = client();
    await supabase.auth.signUp({ email, password: PASSWORD });
    const { fragment } = await followLink(
      linkIn(await emailTo(smtp, email, "Confirm your Revwise account")),
    );
    expect(fragment.get("access_token")).toBeTruthy();
    const { data, error } = await supabase.auth.signInWithPassword({ email, password: PASSWORD });
    expect(error).toBeNull();
    return { email, supabase, session: data.session! };
  }

  /** The two emails an email change sends: to the new address and to the current one. */
  async function emailChangeMails(current: string, next: string) {
    return {
      toNew: await emailTo(smtp, next, "Confirm your new Revwise email address"),
      toCurrent: await emailTo(smtp, current, "Confirm the change of your Revwise email address"),
    };
  }

  const count = async (sql: string, params: unknown[]) =>
    (await ctx.db.query<{ n: number }>(sql, params))[0]!.n;

  it("signs up, confirms by the emailed link, and signs in", async () => {
    const email = uniqueEmail("flow");
    const supabase = client();
    const { data, error } = await supabase.auth.signUp({
      email,
      password: PASSWORD,
      options: { emailRedirectTo: `${server.url}/welcome`, data: { name: "Rachel" } },
    });
    expect(error).toBeNull();
    expect(data.session).toBeNull();
    expect(data.user).toMatchObject({
      email,
      aud: "authenticated",
      role: "authenticated",
      user_metadata: { name: "Rachel" },
      identities: [expect.objectContaining({ provider: "email" })],
    });
    expect(data.user!.email_confirmed_at).toBeUndefined();
    expect(data.user!.confirmation_sent_at).toBeTruthy();

    // Not confirmed yet: the right password says so, a wrong one says nothing more.
    expect(
      (await supabase.auth.signInWithPassword({ email, password: PASSWORD })).error,
    ).toMatchObject({ status: 400, code: "email_not_confirmed" });
    expect(
      (await supabase.auth.signInWithPassword({ email, password: "Wrong-password-1" })).error,
    ).toMatchObject({ code: "invalid_credentials" });

    const mail = await emailTo(smtp, email, "Confirm your Revwise account");
    const link = new URL(linkIn(mail));
    expect(link.origin).toBe(server.url);
    expect(link.searchParams.get("type")).toBe("signup");
    const { status, location, fragment } = await followLink(link.toString());
    expect(status).toBe(303);
    expect(`${location.origin}${location.pathname}`).toBe(`${server.url}/welcome`);
    expect([...fragment.keys()]).toEqual([
      "access_token",
      "expires_at",
      "expires_in",
      "refresh_token",
      "sb",
      "token_type",
      "type",
    ]);
    expect(fragment.get("type")).toBe("signup");
    expect(Number(fragment.get("expires_at")) - Math.floor(Date.now() / 1000)).toBeGreaterThan(
      3500,
    );

    // The link works once.
    expect((await followLink(link.toString())).fragment.get("error_code")).toBe("otp_expired");

    const signedIn = await supabase.auth.signInWithPassword({ email, password: PASSWORD });
    expect(signedIn.error).toBeNull();
    const claims = decodeJwt(signedIn.data.session!.access_token);
    expect(claims).toMatchObject({
      iss: `${server.url}/auth/v1`,
      sub: signedIn.data.user!.id,
      aud: "authenticated",
      role: "authenticated",
      email,
      aal: "aal1",
      amr: [{ method: "password", timestamp: expect.any(Number) }],
      session_id: expect.any(String),
      app_metadata: { provider: "email", providers: ["email"] },
      user_metadata: { name: "Rachel", email_verified: true },
      is_anonymous: false,
    });
    expect(claims.exp! - claims.iat!).toBe(3600);
    expect(signedIn.data.session).toMatchObject({
      token_type: "bearer",
      expires_in: 3600,
      refresh_token: expect.any(String),
    });
  });

  it("confirms by the emailed code too (POST /verify), and signs the user in", async () => {
    const email = uniqueEmail("code");
    const supabase = client();
    await supabase.auth.signUp({ email, password: PASSWORD });
    const code = codeIn(await emailTo(smtp, email, "Confirm your Revwise account"));
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

  it("gets and updates the user: metadata merged, password changed", async () => {
    const { email, supabase } = await confirmedUser("update");
    const got = await supabase.auth.getUser();
    expect(got.data.user).toMatchObject({
      email,
      identities: [
        expect.objectContaining({ identity_id: expect.any(String), provider: "email", email }),
      ],
    });
    expect(got.data.user).not.toHaveProperty("factors");

    const meta = await supabase.auth.updateUser({ data: { team: "EMEA", role_title: "AE" } });
    expect(meta.data.user?.user_metadata).toMatchObject({ team: "EMEA", role_title: "AE" });
    const removed = await supabase.auth.updateUser({ data: { role_title: null } });
    expect(removed.data.user?.user_metadata).not.toHaveProperty("role_title");

    expect((await supabase.auth.updateUser({ password: PASSWORD })).error).toMatchObject({
      code: "same_password",
    });
    expect((await supabase.auth.updateUser({ password: "short" })).error).toMatchObject({
      code: "weak_password",
      reasons: ["length"],
    });
    expect(
      (await supabase.auth.updateUser({ password: "New-Strong-Passphrase-7" })).error,
    ).toBeNull();
    expect(
      (await client().auth.signInWithPassword({ email, password: PASSWORD })).error,
    ).toMatchObject({ code: "invalid_credentials" });
    expect(
      (await client().auth.signInWithPassword({ email, password: "New-Strong-Passphrase-7" }))
        .error,
    ).toBeNull();
  });

  it("rotates refresh tokens, lets a concurrent tab reuse within the window, and ends the session on later reuse", async () => {
    const { session } = await confirmedUser("refresh");
    const refresh = (token: string) =>
      auth("/token?grant_type=refresh_token", {
        method: "POST",
        body: JSON.stringify({ refresh_token: token }),
      }).then(async (r) => ({ status: r.status, body: await r.json() }));

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

  it("signs out with each scope: others, local, global", async () => {
    const { email } = await confirmedUser("scopes");
    const sessions = await Promise.all(
      [1, 2, 3].map(async () => {
        const c = client();
        await c.auth.signInWithPassword({ email, password: PASSWORD });
        return c;
      }),
    );
    const [a, b, c] = sessions as [
      (typeof sessions)[0],
      (typeof sessions)[0],
      (typeof sessions)[0],
    ];
    const valid = async (s: typeof a) =>
      (
        await auth("/user", {
          headers: {
            authorization: `Bearer ${(await s.auth.getSession()).data.session?.access_token}`,
          },
        })
      ).status === 200;

    expect((await a.auth.signOut({ scope: "others" })).error).toBeNull();
    expect([await valid(a), await valid(b), await valid(c)]).toEqual([true, false, false]);

    const d = client();
    await d.auth.signInWithPassword({ email, password: PASSWORD });
    expect((await a.auth.signOut({ scope: "local" })).error).toBeNull();
    expect((await a.auth.getSession()).data.session).toBeNull();
    expect(await valid(d)).toBe(true);

    const e = client();
    await e.auth.signInWithPassword({ email, password: PASSWORD });
    expect((await d.auth.signOut()).error).toBeNull(); // global is the default
    const token = (await e.auth.getSession()).data.session!.access_token;
    expect((await auth("/user", { headers: { authorization: `Bearer ${token}` } })).status).toBe(
      403,
    );

    const badScope = await auth("/logout?scope=everyone", {
      method: "POST",
      headers: { authorization: `Bearer ${token}` },
    });
    expect(badScope.status).toBe(400);
  });

  it("recovers an account: the emailed link signs in for recovery and a new password works", async () => {
    const { email } = await confirmedUser("recover");
    const supabase = client();
    expect(
      await supabase.auth.resetPasswordForEmail(email, {
        redirectTo: `${server.url}/auth/reset-password`,
      }),
    ).toEqual({ data: {}, error: null });
    const mail = await emailTo(smtp, email, "Reset your Revwise password");
    const { location, fragment } = await followLink(linkIn(mail));
    expect(location.pathname).toBe("/auth/reset-password");
    expect(fragment.get("type")).toBe("recovery");
    const recovering = client();
    await recovering.auth.setSession({
      access_token: fragment.get("access_token")!,
      refresh_token: fragment.get("refresh_token")!,
    });
    expect(decodeJwt(fragment.get("access_token")!).amr).toEqual([
      { method: "recovery", timestamp: expect.any(Number) },
    ]);
    expect(
      (await recovering.auth.updateUser({ password: "Brand-New-Password-9" })).error,
    ).toBeNull();
    expect(
      (await client().auth.signInWithPassword({ email, password: PASSWORD })).error?.code,
    ).toBe("invalid_credentials");
    expect(
      (await client().auth.signInWithPassword({ email, password: "Brand-New-Password-9" })).error,
    ).toBeNull();
  });

  it("runs the PKCE flow: the link yields a code that only the verifier can exchange", async () => {
    const email = uniqueEmail("pkce");
    const storage = new Map<string, string>();
    const supabase = createClient(server.url, server.anonKey, {
      global: { headers: { "x-forwarded-for": uniqueIp() } },
      auth: {
        flowType: "pkce",
        autoRefreshToken: false,
        detectSessionInUrl: false,
        persistSession: true,
        storage: {
          getItem: (k) => storage.get(k) ?? null,
          setItem: (k, v) => void storage.set(k, v),
          removeItem: (k) => void storage.delete(k),
        },
      },
    });
    await supabase.auth.signUp({
      email,
      password: PASSWORD,
      options: { emailRedirectTo: `${server.url}/` },
    });
    const link = linkIn(await emailTo(smtp, email, "Confirm your Revwise account"));
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
    const second = await followLink(
      linkIn(await emailTo(smtp, email, "Confirm your Revwise account")),
    );
    expect(second.fragment.get("error_code")).toBe("otp_expired"); // the email was confirmed by the first link
    const signedIn = await supabase.auth.signInWithPassword({ email, password: PASSWORD });
    expect(signedIn.error).toBeNull();

    const other = uniqueEmail("pkce2");
    await supabase.auth.signOut();
    await supabase.auth.signUp({ email: other, password: PASSWORD });
    const otherCode = (
      await followLink(linkIn(await emailTo(smtp, other, "Confirm your Revwise account")))
    ).location.searchParams.get("code")!;
    const exchanged = await supabase.auth.exchangeCodeForSession(otherCode);
    expect(exchanged.error).toBeNull();
    expect(exchanged.data.user?.email).toBe(other);
  });

  it("changes the email only after both addresses confirm", async () => {
    const { email, supabase } = await confirmedUser("change");
    const next = uniqueEmail("changed");
    const { data, error } = await supabase.auth.updateUser({ email: next });
    expect(error).toBeNull();
    expect(data.user).toMatchObject({ email, new_email: next });
    const { toNew, toCurrent } = await emailChangeMails(email, next);
    const first = await followLink(linkIn(toNew));
    expect(first.fragment.get("message")).toBe(
      "Confirmation link accepted. Please proceed to confirm link sent to the other email",
    );
    const second = await followLink(linkIn(toCurrent));
    expect(second.fragment.get("access_token")).toBeTruthy();
    expect(
      (await client().auth.signInWithPassword({ email: next, password: PASSWORD })).error,
    ).toBeNull();
  });

  it("voids the links of an earlier email change when the next change asks for a taken address", async () => {
    const { email, supabase } = await confirmedUser("rechange");
    const first = uniqueEmail("first-choice");
    expect((await supabase.auth.updateUser({ email: first })).error).toBeNull();
    const earlierLinks = Object.values(await emailChangeMails(email, first)).map(linkIn);
    const { email: taken } = await confirmedUser("taken");
    expect((await supabase.auth.updateUser({ email: taken })).error).toBeNull();
    await emailTo(smtp, taken, /already/i);
    for (const link of earlierLinks)
      expect((await followLink(link)).fragment.get("error_code")).toBe("otp_expired");
    // Asking again a while later sends the taken address no link either.
    await ctx.db.query(
      "UPDATE auth.users SET email_change_sent_at = now() - interval '2 minutes' WHERE email = $1",
      [email],
    );
    expect((await client().auth.resend({ type: "email_change", email })).error).toBeNull();
    expect(
      await count(
        "SELECT count(*)::int AS n FROM mail.outbox WHERE to_address = $1 AND kind = 'auth-email-change'",
        [taken],
      ),
    ).toBe(1); // the notice only
    for (const address of [email, taken])
      expect(
        (await client().auth.signInWithPassword({ email: address, password: PASSWORD })).error,
      ).toBeNull();
  });

  it("refuses to finish an email change by code when the new address was taken meanwhile", async () => {
    const { email, supabase } = await confirmedUser("race");
    const next = uniqueEmail("race-next");
    expect((await supabase.auth.updateUser({ email: next })).error).toBeNull();
    const { toNew, toCurrent } = await emailChangeMails(email, next);
    await confirmedUser("race-owner", next);
    const verify = (address: string, token: string) =>
      client().auth.verifyOtp({ email: address, token, type: "email_change" });
    expect((await verify(next, codeIn(toNew))).error).toBeNull();
    expect((await verify(email, codeIn(toCurrent))).error).toMatchObject({
      status: 403,
      code: "otp_expired",
    });
    expect(
      (await client().auth.signInWithPassword({ email, password: PASSWORD })).error,
    ).toBeNull();
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

  it("keeps merged user metadata within its limit and unchanged when an update is refused", async () => {
    const { supabase } = await confirmedUser("metadata");
    expect((await supabase.auth.updateUser({ data: { a: "x".repeat(6000) } })).error).toBeNull();
    expect((await supabase.auth.updateUser({ data: { b: "y".repeat(6000) } })).error).toMatchObject(
      { status: 400, code: "validation_failed" },
    );
    const { data } = await supabase.auth.getUser();
    expect(data.user!.user_metadata).not.toHaveProperty("b");
    expect(data.user!.user_metadata.a).toHaveLength(6000);
  });

  it("reveals no account: sign-up, sign-in and recovery answer alike for known and unknown addresses", async () => {
    const { email } = await confirmedUser("known");
    const unknown = uniqueEmail("unknown");
    const before = smtp.messages.length;

    // Keys in an order jsonb does not keep: the stored user's metadata comes back reordered.
    const data = { zz: 1, é: { yy: 1, x: 2 }, b: 3, a: 4 };
    const signUp = (address: string, metadata: object) =>
      client().auth.signUp({
        email: address,
        password: "Another-Pass-11",
        options: { data: metadata },
      });
    const known = await signUp(email, data);
    const fresh = await signUp(unknown, data);
    const shape = (u: object | null) => Object.keys(u ?? {}).sort();
    expect(shape(known.data.user)).toEqual(shape(fresh.data.user));
    expect(JSON.stringify(known.data.user!.user_metadata)).toBe(
      JSON.stringify(fresh.data.user!.user_metadata),
    );
    expect(known.data.user!.identities).toHaveLength(1);
    expect(known.data.user!.id).not.toBe(fresh.data.user!.id);
    // A second sign-up for an address not yet confirmed tells nothing of the first either.
    const again = await signUp(unknown, { second: true });
    expect(shape(again.data.user)).toEqual(shape(fresh.data.user));
    expect(again.data.user!.id).not.toBe(fresh.data.user!.id);
    expect(again.data.user!.user_metadata).toEqual({ second: true });
    expect(Date.parse(again.data.user!.created_at)).toBeGreaterThanOrEqual(
      Date.parse(fresh.data.user!.created_at),
    );
    // The owner hears about it; the requester cannot tell.
    await emailTo(smtp, email, "You already have a Revwise account");
    expect(
      (await client().auth.signInWithPassword({ email, password: PASSWORD })).error,
    ).toBeNull(); // password unchanged

    const wrongPassword = await auth("/token?grant_type=password", {
      method: "POST",
      body: JSON.stringify({ email, password: "Nope-nope-1" }),
    });
    const noAccount = await auth("/token?grant_type=password", {
      method: "POST",
      body: JSON.stringify({ email: uniqueEmail("ghost"), password: "Nope-nope-1" }),
    });
    expect(await wrongPassword.json()).toEqual(await noAccount.json());
    expect([wrongPassword.status, noAccount.status]).toEqual([400, 400]);

    expect(await client().auth.resetPasswordForEmail(uniqueEmail("ghost"))).toEqual({
      data: {},
      error: null,
    });
    expect(await client().auth.resend({ type: "signup", email: uniqueEmail("ghost") })).toEqual({
      data: { user: null, session: null },
      error: null,
    });
    expect(smtp.messages.length).toBeGreaterThan(before);
  });

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
    expect(
      (await user(await sign(TEST_JWT_SECRET, { ...claims, session_id: crypto.randomUUID() })))
        .code,
    ).toBe("session_not_found");
    expect(await user(session.access_token)).toEqual({ status: 200, code: undefined });
  });

  it("answers bad input with GoTrue's 4xx codes, never a 5xx", async () => {
    const post = (path: string, body: string) =>
      auth(path, { method: "POST", body }).then(async (r) => ({
        status: r.status,
        body: await r.json(),
        version: r.headers.get("x-supabase-api-version"),
      }));
    expect(await post("/signup", "{bad json")).toMatchObject({
      status: 400,
      body: { code: "bad_json" },
      version: "2024-01-01",
    });
    expect(await post("/signup", "[1,2]")).toMatchObject({
      status: 400,
      body: { code: "bad_json" },
    });
    expect(
      await post("/signup", JSON.stringify({ email: "not-an-email", password: PASSWORD })),
    ).toMatchObject({ status: 400, body: { code: "validation_failed" } });
    expect(
      await post("/signup", JSON.stringify({ email: uniqueEmail(), password: "x".repeat(73) })),
    ).toMatchObject({ status: 400, body: { code: "validation_failed" } });
    expect(
      await post("/signup", JSON.stringify({ email: uniqueEmail(), password: "ñ".repeat(37) })),
    ).toMatchObject({ status: 400, body: { code: "validation_failed" } }); // 74 bytes
    expect(
      await post("/signup", JSON.stringify({ email: uniqueEmail(), password: "password123" })),
    ).toMatchObject({
      status: 422,
      body: { code: "weak_password", weak_password: { reasons: ["pwned"] } },
    });
    expect(await post("/signup", JSON.stringify({ email: uniqueEmail() }))).toMatchObject({
      status: 400,
      body: { code: "validation_failed", message: "Signup requires a valid password" },
    });
    expect(await post("/signup", JSON.stringify({ password: PASSWORD }))).toMatchObject({
      status: 422,
      body: { code: "anonymous_provider_disabled" },
    });
    expect(
      await post(
        "/signup",
        JSON.stringify({
          email: uniqueEmail(),
          password: PASSWORD,
          code_challenge: "short",
          code_challenge_method: "s256",
        }),
      ),
    ).toMatchObject({ status: 400, body: { code: "validation_failed" } });
    expect(
      await post("/token?grant_type=password", JSON.stringify({ email: 42, password: [] })),
    ).toMatchObject({ status: 400 });
    expect(
      await post("/token?grant_type=refresh_token", JSON.stringify({ refresh_token: "short" })),
    ).toMatchObject({ status: 400, body: { code: "validation_failed" } });
    expect(
      await post(
        "/token?grant_type=refresh_token",
        JSON.stringify({ refresh_token: "x".repeat(43) }),
      ),
    ).toMatchObject({ status: 400, body: { code: "refresh_token_not_found" } });
    expect(await post("/token?grant_type=magic", "{}")).toMatchObject({
      status: 400,
      body: { code: "invalid_credentials" },
    });
    expect(
      await post(
        "/token?grant_type=pkce",
        JSON.stringify({ auth_code: "nope", code_verifier: "x" }),
      ),
    ).toMatchObject({ status: 404, body: { code: "flow_state_not_found" } });
    expect(
      await post("/verify", JSON.stringify({ type: "signup", token_hash: "f".repeat(56) })),
    ).toMatchObject({ status: 403, body: { code: "otp_expired" } });
    expect(
      await post("/verify", JSON.stringify({ type: "carrier-pigeon", token_hash: "x" })),
    ).toMatchObject({ status: 400 });
    for (const type of ["constructor", "__proto__", "toString"]) {
      expect(
        await post("/verify", JSON.stringify({ type, token_hash: "f".repeat(56) })),
      ).toMatchObject({ status: 400, body: { code: "validation_failed" } });
      const link = await fetch(`${server.url}/auth/v1/verify?token=x&type=${type}`, {
        redirect: "manual",
      });
      expect(link.status).toBe(400);
    }
    expect(
      await post(
        "/token?grant_type=pkce",
        JSON.stringify({ auth_code: "-".repeat(36), code_verifier: "x".repeat(56) }),
      ),
    ).toMatchObject({ status: 404, body: { code: "flow_state_not_found" } });
    // Text jsonb cannot store (NUL, unpaired surrogates) is refused, and nothing is written.
    for (const data of [{ a: "\u0000" }, { a: ["\ud800"] }, { "\udc00": 1 }]) {
      const email = uniqueEmail("unstorable");
      expect(
        await post("/signup", JSON.stringify({ email, password: PASSWORD, data })),
      ).toMatchObject({ status: 400, body: { code: "validation_failed" } });
      expect(
        await count("SELECT count(*)::int AS n FROM auth.users WHERE email = $1", [email]),
      ).toBe(0);
    }
    expect(await post("/recover", JSON.stringify({ email: "nope" }))).toMatchObject({
      status: 400,
      body: { code: "validation_failed" },
    });
    expect(
      await post("/resend", JSON.stringify({ email: uniqueEmail(), type: "whatever" })),
    ).toMatchObject({ status: 400 });
    expect(
      await post(
        "/signup",
        JSON.stringify({ email: uniqueEmail(), password: PASSWORD, data: "x".repeat(70_000) }),
      ),
    ).toMatchObject({ status: 413, body: { code: "request_entity_too_large" } });
    expect(await post("/otp", JSON.stringify({ email: uniqueEmail() }))).toMatchObject({
      status: 422,
      body: { code: "otp_disabled" },
    });
    const verifyGet = await fetch(`${server.url}/auth/v1/verify?type=signup`, {
      redirect: "manual",
    });
    expect(verifyGet.status).toBe(400);
    const badLink = await followLink(
      `${server.url}/auth/v1/verify?token=${"a".repeat(56)}&type=signup&redirect_to=${encodeURIComponent("https://evil.example/steal")}`,
    );
    expect(badLink.status).toBe(303);
    expect(badLink.location.origin).toBe(server.url); // not redirected off-site
    expect(badLink.fragment.get("error_code")).toBe("otp_expired");
  });

  it("serves settings and health, with the API version on every answer", async () => {
    const settings = await auth("/settings");
    expect(settings.headers.get("x-supabase-api-version")).toBe("2024-01-01");
    expect(await settings.json()).toMatchObject({
      external: { email: true, phone: false },
      disable_signup: false,
      mailer_autoconfirm: false,
    });
  });

  it("limits account-email requests per address in one bucket: sign-up, recovery and resend share 30 every 5 minutes", async () => {
    const ip = uniqueIp();
    const send = (path: string, body: object) =>
      auth(path, {
        method: "POST",
        headers: { "x-forwarded-for": ip },
        body: JSON.stringify(body),
      }).then((r) => r.status);
    const tries = [];
    for (let i = 0; i < 10; i++) {
      tries.push(await send("/signup", { email: "not-valid", password: "x" }));
      tries.push(await send("/recover", { email: "not-valid" }));
      tries.push(await send("/resend", { type: "signup", email: "not-valid" }));
    }
    expect(tries.every((s) => s === 400)).toBe(true);
    const refused = await auth("/recover", {
      method: "POST",
      headers: { "x-forwarded-for": ip },
      body: "{}",
    });
    expect(refused.status).toBe(429);
    expect(await refused.json()).toMatchObject({ code: "over_request_rate_limit" });
    expect(await send("/signup", { email: "not-valid", password: "x" })).toBe(429);
    // Another address has its own bucket.
    expect(
      (
        await auth("/signup", {
          method: "POST",
          body: JSON.stringify({ email: "not-valid", password: "x" }),
        })
      ).status,
    ).toBe(400);
  });

  it("limits token requests per address: 150 every 5 minutes", async () => {
    const ip = uniqueIp();
    const statuses = await Promise.all(
      Array.from({ length: 151 }, () =>
        auth("/token?grant_type=nope", {
          method: "POST",
          headers: { "x-forwarded-for": ip },
          body: "{}",
        }).then((r) => r.status),
      ),
    );
    expect(statuses.filter((s) => s === 429)).toHaveLength(1);
  });
});

describeEachDatabase("auth email budget and autoconfirm", (ctx) => {
  it("refuses account emails beyond the hourly budget with over_email_send_rate_limit", async () => {
    const smtp = await startSmtp();
    const server = await startApiServer(ctx.db, {
      env: { SMTP_URL: smtp.url, RATE_LIMIT_EMAIL_SENT: "2" },
    });
    try {
      await ctx.db.query("DELETE FROM mail.outbox WHERE kind LIKE 'auth-%'");
      const signUp = () =>
        server
          .client({ ip: uniqueIp() })
          .auth.signUp({ email: uniqueEmail("budget"), password: PASSWORD });
      expect((await signUp()).error).toBeNull();
      expect((await signUp()).error).toBeNull();
      expect((await signUp()).error).toMatchObject({
        status: 429,
        code: "over_email_send_rate_limit",
      });
    } finally {
      await server.close();
      await smtp.stop();
    }
  });

  it("spends the per-IP email budget on every path that emails a typed address", async () => {
    const smtp = await startSmtp();
    const server = await startApiServer(ctx.db, {
      env: {
        SMTP_URL: smtp.url,
        MAILER_AUTOCONFIRM: "true",
        RATE_LIMIT_EMAIL_IP: "3",
        RATE_LIMIT_EMAIL_SENT: "1000",
      },
    });
    try {
      const ip = uniqueIp();
      const visitor = server.client({ ip });
      // Signing up without confirmation emails nobody, so it spends nothing.
      const { data } = await visitor.auth.signUp({
        email: uniqueEmail("owner"),
        password: PASSWORD,
      });
      expect(data.session).toBeTruthy();
      const refused = { status: 429, code: "over_email_send_rate_limit" };
      expect((await visitor.auth.resetPasswordForEmail(uniqueEmail("nobody"))).error).toBeNull();
      expect(
        (await visitor.auth.resend({ type: "signup", email: uniqueEmail("nobody") })).error,
      ).toBeNull();
      expect((await visitor.auth.updateUser({ email: uniqueEmail("moved") })).error).toBeNull();
      expect((await visitor.auth.resetPasswordForEmail(uniqueEmail("nobody"))).error).toMatchObject(
        refused,
      );
      expect(
        (await visitor.auth.resend({ type: "signup", email: uniqueEmail("nobody") })).error,
      ).toMatchObject(refused);
      expect((await visitor.auth.updateUser({ email: uniqueEmail("moved") })).error).toMatchObject(
        refused,
      );
      // Another client address has a budget of its own.
      expect(
        (await server.client({ ip: uniqueIp() }).auth.resetPasswordForEmail(uniqueEmail("other")))
          .error,
      ).toBeNull();
    } finally {
      await server.close();
      await smtp.stop();
    }
  });

  it("signs up straight into a session with MAILER_AUTOCONFIRM=true, and then refuses a second sign-up", async () => {
    const server = await startApiServer(ctx.db, { env: { MAILER_AUTOCONFIRM: "true" } });
    try {
      const email = uniqueEmail("auto");
      const { data, error } = await server
        .client({ ip: uniqueIp() })
        .auth.signUp({ email, password: PASSWORD });
      expect(error).toBeNull();
      expect(data.session?.user.email_confirmed_at).toBeTruthy();
      expect(
        (await server.client({ ip: uniqueIp() }).auth.signUp({ email, password: PASSWORD })).error,
      ).toMatchObject({ status: 422, code: "user_already_exists" });
      // Sign-ups racing for one new address: one account, the others told it exists.
      const racing = uniqueEmail("racing");
      const outcomes = await Promise.all(
        Array.from({ length: 4 }, () =>
          server.client({ ip: uniqueIp() }).auth.signUp({ email: racing, password: PASSWORD }),
        ),
      );
      expect(outcomes.filter((o) => o.error === null)).toHaveLength(1);
      for (const o of outcomes.filter((o) => o.error !== null))
        expect(o.error).toMatchObject({ status: 422, code: "user_already_exists" });
      void addressOf;
    } finally {
      await server.close();
    }
  });
});
