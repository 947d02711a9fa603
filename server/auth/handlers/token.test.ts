// POST /token: a password sign-in that reports a weak password, refuses an unconfirmed email
// even with MAILER_AUTOCONFIRM, and stores what it answers with (on each engine); typed fields;
// grant_type=refresh_token: the token's form checked before any lookup, rotation and what it
// stores, the reuse window, the end of a session on later reuse, a banned user refused before
// anything changes; grant_type=id_token answered as GoTrue does with no provider configured; the
// per-address limit of token requests; nothing stored of a refused password sign-in.
import crypto from "node:crypto";
import { decodeJwt } from "jose";
import { MIN_PASSWORD_LENGTH } from "../../../common/accounts.ts";
import { expect, it } from "vitest";
import { uniqueIp } from "../../../tests/support/api-server.ts";
import {
  describeAuthSuite,
  describeAuthSuiteEachDatabase,
} from "../../../tests/support/auth-suite.ts";
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

  it("checks a refresh token's form before looking it up, as GoTrue does with its own form", async () => {
    const refresh = (token: string) =>
      auth("/token?grant_type=refresh_token", {
        method: "POST",
        body: JSON.stringify({ refresh_token: token }),
      }).then(async (r) => ({ token, status: r.status, code: (await r.json()).code }));
    const ours = crypto.randomBytes(32).toString("base64url");
    const malformed = [
      "short",
      "abcdefghijk", // 11 characters
      "ABCDEFGHIJKL", // 12 characters, not GoTrue's legacy [a-z0-9]{12}
      "abcdefghijk-",
      "abcdefghijklm", // 13
      crypto.randomUUID(),
      `${ours}A`, // 44
      ours.slice(0, 42), // 42
      `${ours.slice(0, 42)}B`, // 43, but a 32-byte value never ends with B in base64url
      `${ours.slice(0, 41)}+A`, // base64, not base64url
      `${ours.slice(0, 42)}=`,
      `${ours.slice(0, 41)} A`,
    ];
    for (const token of malformed)
      expect(await refresh(token)).toEqual({ token, status: 400, code: "validation_failed" });
    // Well-formed (one of ours, or GoTrue's legacy form, which we never issue) but unknown.
    for (const token of [ours, "abcdefghij12"])
      expect(await refresh(token)).toEqual({ token, status: 400, code: "refresh_token_not_found" });
  });

  it("stores nothing of a refused sign-in (its session is made while the password is checked): a wrong password, a banned account", async () => {
    const { email, supabase, session } = await confirmedUser("refused");
    const userId = session.user.id;
    const stored = async () =>
      (
        await ctx.db.query(
          `SELECT (SELECT count(*)::int FROM auth.sessions WHERE user_id = $1) AS sessions,
             (SELECT count(*)::int FROM auth.refresh_tokens WHERE user_id = $1) AS tokens,
             (SELECT count(*)::int FROM auth.audit_log_entries
               WHERE payload->>'actor_id' = $1::text AND payload->>'action' = 'login') AS logins,
             (SELECT last_sign_in_at FROM auth.users WHERE id = $1) AS signed_in`,
          [userId],
        )
      )[0];
    const before = await stored();
    const wrong = await supabase.auth.signInWithPassword({ email, password: `${PASSWORD}x` });
    expect(wrong.error).toMatchObject({ status: 400, code: "invalid_credentials" });
    const { error } = await server
      .admin()
      .auth.admin.updateUserById(userId, { ban_duration: "1h" });
    expect(error).toBeNull();
    const banned = await supabase.auth.signInWithPassword({ email, password: PASSWORD });
    expect(banned.error).toMatchObject({ status: 400, code: "user_banned" });
    expect(await stored()).toEqual(before);
  });

  it("refuses a banned user's refresh first, with GoTrue's message, and rotates or ends nothing", async () => {
    const { session } = await confirmedUser("banned-refresh");
    const refresh = (token: string) =>
      auth("/token?grant_type=refresh_token", {
        method: "POST",
        body: JSON.stringify({ refresh_token: token }),
      }).then(async (r) => ({ status: r.status, body: await r.json() }));
    const first = await refresh(session.refresh_token);
    expect(first.status).toBe(200);
    const current = first.body.refresh_token as string;
    const sessionId = decodeJwt(session.access_token).session_id as string;
    const tokens = () =>
      ctx.db.query<{ id: string; revoked: boolean }>(
        "SELECT id, revoked FROM auth.refresh_tokens WHERE session_id = $1 ORDER BY id",
        [sessionId],
      );
    const admin = server.admin().auth.admin;
    expect((await admin.updateUserById(session.user.id, { ban_duration: "1h" })).error).toBeNull();
    // The old token is long revoked: without the ban it would end the session.
    await ctx.db.query(
      "UPDATE auth.refresh_tokens SET revoked_at = now() - interval '1 minute' WHERE session_id = $1 AND revoked",
      [sessionId],
    );
    const before = await tokens();
    for (const token of [current, session.refresh_token])
      expect(await refresh(token)).toMatchObject({
        status: 400,
        body: { code: "user_banned", msg: "Invalid Refresh Token: User Banned" },
      });
    expect(await tokens()).toEqual(before);

    // Once the ban is lifted, the session carries on from its current token.
    expect(
      (await admin.updateUserById(session.user.id, { ban_duration: "none" })).error,
    ).toBeNull();
    expect((await refresh(current)).status).toBe(200);
  });

  it("answers the id_token grant as GoTrue does with no provider configured, in GoTrue's order", async () => {
    const jwt = (payload: unknown) =>
      `e30.${Buffer.from(JSON.stringify(payload)).toString("base64url")}.c2ln`;
    const apple = jwt({ iss: "https://appleid.apple.com", sub: "1" });
    const azure = "https://login.microsoftonline.com/9188040d-6c67-4c5b-b112-36a304b66dad/v2.0";
    const oauth = (description: string) => ({
      status: 400,
      body: { error: "invalid request", error_description: description },
      errorCode: null,
    });
    const refused = (status: number, code: string, msg: string) => ({
      status,
      body: { code, msg },
      errorCode: code,
    });
    const disabled = (issuer: string) =>
      refused(400, "provider_disabled", `Provider (issuer "${issuer}") is not enabled`);
    const invalid = (msg: string) => refused(400, "validation_failed", msg);
    const { session } = await confirmedUser("id-token");
    const cases: [Record<string, unknown>, Record<string, string>, unknown][] = [
      [{}, {}, oauth("id_token required")],
      [{ provider: "google" }, {}, oauth("id_token required")],
      [{ id_token: "x" }, {}, oauth("provider or client_id and issuer required")],
      [{ id_token: "x", client_id: "c" }, {}, oauth("provider or client_id and issuer required")],
      [
        { id_token: "x", issuer: "https://accounts.google.com" },
        {},
        oauth("provider or client_id and issuer required"),
      ],
      [
        { id_token: "x", provider: "google", link_identity: true },
        {},
        oauth("Linking requires a valid user access token in Authorization"),
      ],
      [
        { id_token: "x", provider: "google", link_identity: true },
        { authorization: `Bearer ${server.anonKey}` },
        refused(403, "bad_jwt", "invalid claim: missing sub claim"),
      ],
      [
        { id_token: "x", provider: "google", link_identity: true },
        { authorization: `Bearer ${session.access_token}` },
        disabled("https://accounts.google.com"),
      ],
      [{ id_token: "x", provider: "google" }, {}, disabled("https://accounts.google.com")],
      [
        { id_token: "x", client_id: "c", issuer: "https://accounts.google.com" },
        {},
        disabled("https://accounts.google.com"),
      ],
      [{ id_token: "x", provider: "facebook" }, {}, disabled("https://www.facebook.com")],
      [{ id_token: "x", provider: "kakao" }, {}, disabled("https://kauth.kakao.com")],
      [
        { id_token: "x", provider: "vercel_marketplace" },
        {},
        disabled("https://marketplace.vercel.com"),
      ],
      [
        { id_token: "x", provider: "snapchat" },
        {},
        disabled("https://accounts.snapchat.com/accounts/oauth2/token"),
      ],
      [{ id_token: "x", provider: "keycloak" }, {}, disabled("")],
      // Apple and Azure: the issuer is read from the token (unverified) first.
      [
        { id_token: "x", provider: "apple" },
        {},
        invalid("Unable to detect issuer in ID token for Apple provider"),
      ],
      [
        { id_token: `e30.${Buffer.from("[]").toString("base64url")}.c2ln`, provider: "apple" },
        {},
        invalid("Unable to detect issuer in ID token for Apple provider"),
      ],
      [
        { id_token: jwt({ iss: "https://evil.example" }), provider: "apple" },
        {},
        invalid("Detected ID token issuer is not an Apple ID token issuer"),
      ],
      [
        { id_token: apple, client_id: "c", issuer: "https://account.apple.com" },
        {},
        invalid("Provided issuer does not match ID token issuer"),
      ],
      [{ id_token: apple, provider: "apple" }, {}, disabled("https://appleid.apple.com")],
      // Go's JSON decoding matches a field's name in any case.
      [
        { id_token: jwt({ ISS: "https://account.apple.com" }), provider: "apple" },
        {},
        disabled("https://account.apple.com"),
      ],
      [{ id_token: jwt({ iss: azure }), client_id: "c", issuer: azure }, {}, disabled(azure)],
      [
        { id_token: jwt({ iss: 'https://sts.windows.net/t/"\u00a0' }), provider: "azure" },
        {},
        disabled('https://sts.windows.net/t/\\"\\u00a0'),
      ],
      [
        { id_token: jwt({ iss: "https://example.com" }), provider: "azure" },
        {},
        invalid("Detected ID token issuer is not an Azure ID token issuer"),
      ],
      [
        { id_token: "a.b", provider: "azure" },
        {},
        invalid("Unable to detect issuer in ID token for Azure provider"),
      ],
      [
        { id_token: "x", provider: "custom:acme" },
        {},
        invalid('Custom provider "custom:acme" not found'),
      ],
      [
        { id_token: "x", provider: "github" },
        {},
        invalid('Custom OIDC provider "github" not allowed'),
      ],
      [
        { id_token: "x", provider: 'a"\n' },
        {},
        invalid('Custom OIDC provider "a\\"\\n" not allowed'),
      ],
      [
        { id_token: "x", client_id: "c", issuer: "https://example.com" },
        {},
        invalid('Custom OIDC provider "" not allowed'),
      ],
      [{ id_token: 5, provider: "google" }, {}, refused(400, "bad_json", expect.any(String))],
      [
        { id_token: "x", provider: "google", link_identity: "yes" },
        {},
        refused(400, "bad_json", expect.any(String)),
      ],
      [
        { id_token: "x", provider: "google", nonce: 5 },
        {},
        refused(400, "bad_json", expect.any(String)),
      ],
    ];
    for (const [body, headers, expected] of cases) {
      const res = await auth("/token?grant_type=id_token", {
        method: "POST",
        headers,
        body: JSON.stringify(body),
      });
      expect([
        body,
        headers,
        {
          status: res.status,
          body: await res.json(),
          errorCode: res.headers.get("x-sb-error-code"),
        },
      ]).toMatchObject([body, headers, expected]);
    }

    // supabase-js reads the refusal as an AuthApiError.
    const { error } = await client().auth.signInWithIdToken({ provider: "google", token: "x" });
    expect(error).toMatchObject({
      status: 400,
      code: "provider_disabled",
      message: 'Provider (issuer "https://accounts.google.com") is not enabled',
    });
  });

  it("reads no body for a grant GoTrue refuses before reading one (web3 off, an unknown grant)", async () => {
    for (const [grant, status, code, msg] of [
      ["web3", 422, "web3_provider_disabled", "Web3 provider is disabled"],
      ["nope", 400, "invalid_credentials", "unsupported_grant_type"],
    ] as const)
      for (const body of ["[]", '"text"', JSON.stringify({ chain: "solana\u0000" })]) {
        const res = await auth(`/token?grant_type=${grant}`, { method: "POST", body });
        expect([grant, body, res.status, await res.json()]).toMatchObject([
          grant,
          body,
          status,
          { code, msg },
        ]);
      }
  });

  it("refreshes through supabase-js and keeps the user signed in", async () => {
    const { supabase, session } = await confirmedUser("sdk-refresh");
    const { data, error } = await supabase.auth.refreshSession();
    expect(error).toBeNull();
    expect(data.session!.refresh_token).not.toBe(session.refresh_token);
    expect((await supabase.auth.getUser()).data.user?.id).toBe(session.user.id);
  });

  it("limits token requests per client IP: bursts of 30, refilled at 150 every 5 minutes; web3 apart, an unknown grant never", async () => {
    const statusesOf = async (ip: string, grant: string, count: number) => {
      const statuses: number[] = [];
      // One at a time: the bucket refills one request every 2 s, far longer than these take.
      for (let i = 0; i < count; i++)
        statuses.push(
          (
            await auth(`/token?grant_type=${grant}`, {
              method: "POST",
              headers: { "x-forwarded-for": ip },
              body: "{}",
            })
          ).status,
        );
      return statuses;
    };
    const ip = uniqueIp();
    const statuses = await statusesOf(ip, "password", 31);
    expect(statuses.slice(0, 30).every((s) => s === 400)).toBe(true);
    expect(statuses[30]).toBe(429);
    // GoTrue limits a grant after knowing it: an unknown one is refused unlimited, and web3 has
    // its own bucket (GOTRUE_RATE_LIMIT_WEB3, 30 per 5 minutes).
    expect(await statusesOf(ip, "nope", 2)).toEqual([400, 400]);
    expect(await statusesOf(ip, "web3", 1)).toEqual([422]);
    const other = uniqueIp();
    const web3 = await statusesOf(other, "web3", 31);
    expect(web3.slice(0, 30).every((s) => s === 422)).toBe(true);
    expect(web3[30]).toBe(429);
    expect(await statusesOf(other, "password", 1)).toEqual([400]);
  });
});

describeAuthSuite(
  "auth: token with MAILER_AUTOCONFIRM=true",
  ({ server, client }) => {
    it("still refuses an unconfirmed email after a correct password, as GoTrue does", async () => {
      const email = uniqueEmail("unconfirmed");
      const { error: created } = await server
        .admin()
        .auth.admin.createUser({ email, password: PASSWORD });
      expect(created).toBeNull();
      const { data, error } = await client().auth.signInWithPassword({ email, password: PASSWORD });
      expect(data.session).toBeNull();
      expect(error).toMatchObject({
        status: 400,
        code: "email_not_confirmed",
        message: "Email not confirmed",
      });
      // A wrong password is still only invalid credentials.
      expect(
        (await client().auth.signInWithPassword({ email, password: `${PASSWORD}x` })).error,
      ).toMatchObject({ status: 400, code: "invalid_credentials" });
    });

    it("confirms a sign-up at once, so it signs in", async () => {
      const email = uniqueEmail("autoconfirmed");
      const signUp = await client().auth.signUp({ email, password: PASSWORD });
      expect(signUp.error).toBeNull();
      expect(signUp.data.user?.email_confirmed_at).toBeTruthy();
      const { data, error } = await client().auth.signInWithPassword({ email, password: PASSWORD });
      expect(error).toBeNull();
      expect(data.session?.user.email).toBe(email);
    });
  },
  { MAILER_AUTOCONFIRM: "true" },
);

// What a sign-in stores, and two tabs refreshing at the same moment (kept apart by the database
// alone): on each engine.
describeAuthSuiteEachDatabase("auth: token, on each engine", ({ ctx, auth, confirmedUser }) => {
  it("stores the session it answers with, its refresh token, the user's sign-in time and a login entry; leaves the identity's time to its provider", async () => {
    const { email, supabase, session: first } = await confirmedUser("stored");
    const userId = first.user.id;
    const identityTime = async () =>
      (
        await ctx.db.query<{ last_sign_in_at: Date | null }>(
          "SELECT last_sign_in_at FROM auth.identities WHERE user_id = $1",
          [userId],
        )
      ).map((i) => i.last_sign_in_at?.toISOString() ?? null);
    const logins = async () =>
      (
        await ctx.db.query(
          `SELECT 1 FROM auth.audit_log_entries
             WHERE payload->>'actor_id' = $1 AND payload->>'action' = 'login'`,
          [userId],
        )
      ).length;
    const [identityBefore, loginsBefore] = [await identityTime(), await logins()];
    const { data, error } = await supabase.auth.signInWithPassword({ email, password: PASSWORD });
    expect(error).toBeNull();
    const sessionId = decodeJwt(data.session!.access_token).session_id as string;
    const [stored] = await ctx.db.query<{ created_at: Date; amr: unknown; token: number }>(
      `SELECT s.created_at, s.amr,
           (SELECT count(*)::int FROM auth.refresh_tokens t WHERE t.session_id = s.id) AS token
         FROM auth.sessions s WHERE s.id = $1 AND s.user_id = $2`,
      [sessionId, userId],
    );
    expect(stored).toMatchObject({ token: 1, amr: [{ method: "password" }] });
    // The answer's sign-in time is the session's start, as stored on the user.
    const [user] = await ctx.db.query<{ last_sign_in_at: Date }>(
      "SELECT last_sign_in_at FROM auth.users WHERE id = $1",
      [userId],
    );
    expect(data.user!.last_sign_in_at).toBe(stored!.created_at.toISOString());
    expect(user!.last_sign_in_at.toISOString()).toBe(stored!.created_at.toISOString());
    expect(await identityTime()).toEqual(identityBefore);
    expect(await logins()).toBe(loginsBefore + 1);
    // The refresh token works: it is the stored one.
    const refreshed = await auth("/token?grant_type=refresh_token", {
      method: "POST",
      body: JSON.stringify({ refresh_token: data.session!.refresh_token }),
    });
    expect(refreshed.status).toBe(200);
    expect(decodeJwt((await refreshed.json()).access_token).session_id).toBe(sessionId);
  });

  it("answers a sign-in with the user's identities and factors, as GET /user lists them", async () => {
    const { email, supabase } = await confirmedUser("listed");
    const enrolled = await supabase.auth.mfa.enroll({ factorType: "totp", friendlyName: "Phone" });
    expect(enrolled.error).toBeNull();
    const { data, error } = await supabase.auth.signInWithPassword({ email, password: PASSWORD });
    expect(error).toBeNull();
    expect(data.user!.identities!.map((i) => i.provider)).toEqual(["email"]);
    expect(data.user!.factors!.map((f) => [f.id, f.friendly_name])).toEqual([
      [(enrolled.data as { id: string }).id, "Phone"],
    ]);
    const listed = (await supabase.auth.getUser()).data.user!;
    expect(data.user!.identities).toEqual(listed.identities);
    expect(data.user!.factors).toEqual(listed.factors);
  });

  it("rotates refresh tokens (the old one revoked, its child stored, the session's refresh time written), lets a concurrent tab reuse within the window, and ends the session on later reuse", async () => {
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
    const sessionId = decodeJwt(session.access_token).session_id as string;
    expect(decodeJwt(first.body.access_token).session_id).toBe(sessionId);
    // What it stored: the presented token revoked, its child, the session's refresh time.
    const tokens = await ctx.db.query<{ id: string; parent_id: string | null; revoked: boolean }>(
      "SELECT id, parent_id, revoked FROM auth.refresh_tokens WHERE session_id = $1 ORDER BY created_at",
      [sessionId],
    );
    expect(tokens).toMatchObject([
      { parent_id: null, revoked: true },
      { parent_id: tokens[0]!.id, revoked: false },
    ]);
    const [stored] = await ctx.db.query<{ refreshed_at: Date | null; created_at: Date }>(
      "SELECT refreshed_at, created_at FROM auth.sessions WHERE id = $1",
      [sessionId],
    );
    expect(stored!.refreshed_at!.getTime()).toBeGreaterThan(stored!.created_at.getTime());

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
    const me = await auth("/user", {
      headers: { authorization: `Bearer ${a.body.access_token}` },
    });
    expect(me.status).toBe(403);
    expect((await me.json()).code).toBe("session_not_found");
  });
});
