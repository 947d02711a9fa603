// The OAuth 2.1 server through real clients: supabase-js's admin.oauth (clients) and oauth
// (authorization details, approve, deny, grants) as the signed-in person, and openid-client as
// the other tool (discovery, the authorization code with PKCE, the ID token checked against our
// JWKS, userinfo, refresh, revocation). Then the attacks: another person's or another client's
// authorization, a code used twice (or twice at once), a redirect URI not registered, a missing
// or wrong PKCE verifier, a wrong secret, an expired code.
import crypto from "node:crypto";
import type { SupabaseClient } from "@supabase/supabase-js";
import { decodeJwt } from "jose";
import * as oidc from "openid-client";
import { expect, it } from "vitest";
import { uniqueIp, type ApiServer } from "../../../tests/support/api-server.ts";
import {
  describeAuthSuite,
  describeAuthSuiteEachDatabase,
} from "../../../tests/support/auth-suite.ts";
import { privateJwk } from "../../../tests/support/jwt-keys.ts";

/** Where the other tool receives its codes (never reached: the tests read the redirect). */
const CALLBACK = "http://127.0.0.1:9/callback";

/** A client's credentials as the admin API hands them over once. */
type Registered = { client_id: string; client_secret?: string };

/** openid-client's configuration for one registered client, found by discovery. */
function discover(server: ApiServer, client: Registered) {
  return oidc.discovery(
    new URL(`${server.url}/auth/v1`),
    client.client_id,
    undefined,
    client.client_secret ? oidc.ClientSecretBasic(client.client_secret) : oidc.None(),
    { execute: [oidc.allowInsecureRequests] },
  );
}

/** GET /oauth/authorize as a browser follows it: where it is sent. */
async function follow(url: string) {
  const res = await fetch(url, { redirect: "manual" });
  return { status: res.status, location: res.headers.get("location"), res };
}

/** The token endpoint called by hand (form body, as OAuth clients post). */
function tokenRequest(server: ApiServer, form: Record<string, string>, basic?: [string, string]) {
  return fetch(`${server.url}/auth/v1/oauth/token`, {
    method: "POST",
    headers: {
      "content-type": "application/x-www-form-urlencoded",
      "x-forwarded-for": uniqueIp(),
      ...(basic
        ? { authorization: `Basic ${Buffer.from(`${basic[0]}:${basic[1]}`).toString("base64")}` }
        : {}),
    },
    body: new URLSearchParams(form),
  });
}

const signing = privateJwk("ES256");

describeAuthSuiteEachDatabase(
  "auth: the OAuth 2.1 server",
  ({ server, confirmedUser, auth, ctx }) => {
    async function registerClient(fields: Record<string, unknown> = {}): Promise<Registered> {
      const { data, error } = await server.admin().auth.admin.oauth.createClient({
        client_name: "Pipeline CRM",
        client_uri: "https://crm.example",
        redirect_uris: [CALLBACK],
        ...fields,
      } as Parameters<SupabaseClient["auth"]["admin"]["oauth"]["createClient"]>[0]);
      expect(error).toBeNull();
      return data as Registered;
    }

    /** A whole start: the authorization URL with PKCE, state and nonce, and the consent page's id. */
    async function startAuthorization(config: oidc.Configuration, scope = "openid email profile") {
      const verifier = oidc.randomPKCECodeVerifier();
      const state = oidc.randomState();
      const nonce = oidc.randomNonce();
      const url = oidc.buildAuthorizationUrl(config, {
        redirect_uri: CALLBACK,
        scope,
        state,
        nonce,
        code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
        code_challenge_method: "S256",
      });
      const { status, location } = await follow(url.href);
      expect(status).toBe(302);
      const consent = new URL(location!);
      expect(`${consent.origin}${consent.pathname}`).toBe(`${server.url}/oauth/consent`);
      return { verifier, state, nonce, id: consent.searchParams.get("authorization_id")! };
    }

    /** Started and approved by the person: the redirect URL with the code. */
    async function approved(config: oidc.Configuration, supabase: SupabaseClient, scope?: string) {
      const started = await startAuthorization(config, scope);
      const details = await supabase.auth.oauth.getAuthorizationDetails(started.id);
      expect(details.error).toBeNull();
      const { data, error } = await supabase.auth.oauth.approveAuthorization(started.id, {
        skipBrowserRedirect: true,
      });
      expect(error).toBeNull();
      return { ...started, redirect: new URL(data!.redirect_url) };
    }

    it("manages clients through admin.oauth: made, listed, read, changed, secret renewed, deleted", async () => {
      const oauth = server.admin().auth.admin.oauth;
      const made = await registerClient({ client_name: "Zap Flows" });
      expect(made).toMatchObject({
        client_type: "confidential",
        token_endpoint_auth_method: "client_secret_basic",
        grant_types: ["authorization_code", "refresh_token"],
        response_types: ["code"],
        redirect_uris: [CALLBACK],
        registration_type: "manual",
        client_name: "Zap Flows",
      });
      expect(made.client_secret).toMatch(/^[\w-]{43}$/);
      // Stored as its hash only.
      const [row] = await ctx.db.query<{ client_secret_hash: string }>(
        "SELECT client_secret_hash FROM auth.oauth_clients WHERE id = $1",
        [made.client_id],
      );
      expect(row!.client_secret_hash).not.toContain(made.client_secret);
      expect(row!.client_secret_hash).toBe(
        crypto.createHash("sha256").update(made.client_secret!).digest("base64url"),
      );

      const listed = await oauth.listClients();
      expect(listed.error).toBeNull();
      const mine = listed.data.clients.find((c) => c.client_id === made.client_id);
      expect(mine).toBeDefined();
      expect(mine).not.toHaveProperty("client_secret");

      const got = await oauth.getClient(made.client_id);
      expect(got.data).toMatchObject({ client_id: made.client_id, client_name: "Zap Flows" });

      const updated = await oauth.updateClient(made.client_id, {
        client_name: "Zap Flows 2",
        redirect_uris: [CALLBACK, "https://zap.example/cb"],
      });
      expect(updated.error).toBeNull();
      expect(updated.data).toMatchObject({
        client_name: "Zap Flows 2",
        redirect_uris: [CALLBACK, "https://zap.example/cb"],
      });

      const renewed = await oauth.regenerateClientSecret(made.client_id);
      expect(renewed.error).toBeNull();
      expect(renewed.data!.client_secret).toMatch(/^[\w-]{43}$/);
      expect(renewed.data!.client_secret).not.toBe(made.client_secret);

      expect((await oauth.deleteClient(made.client_id)).error).toBeNull();
      const gone = await oauth.getClient(made.client_id);
      expect(gone.error).toMatchObject({ status: 404, code: "oauth_client_not_found" });
    });

    it("makes public clients without a secret, and refuses what GoTrue refuses", async () => {
      const oauth = server.admin().auth.admin.oauth;
      const pub = await registerClient({ client_type: "public" });
      expect(pub).toMatchObject({ client_type: "public", token_endpoint_auth_method: "none" });
      expect(pub).not.toHaveProperty("client_secret");
      const regen = await oauth.regenerateClientSecret(pub.client_id);
      expect(regen.error).toMatchObject({ status: 400, code: "validation_failed" });
      for (const [fields, message] of [
        [{ redirect_uris: [] }, "redirect_uris cannot be empty"],
        [{ redirect_uris: ["http://crm.example/cb"] }, "HTTP scheme only allowed for localhost"],
        [{ redirect_uris: ["javascript://x/alert(1)"] }, "not allowed for security reasons"],
        [{ redirect_uris: ["https://crm.example/cb#x"] }, "fragment not allowed"],
        [{ grant_types: ["password"] }, "grant_types must only contain"],
        [
          { client_type: "public", token_endpoint_auth_method: "client_secret_post" },
          "inconsistent",
        ],
      ] as const) {
        const { error } = await oauth.createClient({
          redirect_uris: [CALLBACK],
          ...fields,
        } as never);
        expect(error).toMatchObject({ status: 400, code: "validation_failed" });
        expect(error!.message).toContain(message);
      }
      // Only the service role manages clients.
      const { session } = await confirmedUser("oauth-not-admin");
      const res = await auth("/admin/oauth/clients", {
        headers: { authorization: `Bearer ${session.access_token}` },
      });
      expect(res.status).toBe(403);
    });

    it("registers clients dynamically when allowed (RFC 7591)", async () => {
      const res = await auth("/oauth/clients/register", {
        method: "POST",
        body: JSON.stringify({ client_name: "Dyn", redirect_uris: [CALLBACK] }),
      });
      expect(res.status).toBe(201);
      const body = (await res.json()) as Registered & { registration_type: string };
      expect(body.registration_type).toBe("dynamic");
      expect(body.client_secret).toMatch(/^[\w-]{43}$/);
      const discovery = (await (await auth("/.well-known/openid-configuration")).json()) as Record<
        string,
        unknown
      >;
      expect(discovery.registration_endpoint).toBe(`${server.url}/auth/v1/oauth/clients/register`);
    });

    it("runs the whole code flow with openid-client: discovery, consent, tokens, ID token, userinfo, refresh, revocation", async () => {
      const registered = await registerClient();
      const config = await discover(server, registered);
      expect(config.serverMetadata()).toMatchObject({
        issuer: `${server.url}/auth/v1`,
        code_challenge_methods_supported: ["S256"],
      });
      const { supabase, session, email } = await confirmedUser("oauth-flow");

      const started = await startAuthorization(config);
      const details = await supabase.auth.oauth.getAuthorizationDetails(started.id);
      expect(details.error).toBeNull();
      expect(details.data).toEqual({
        authorization_id: started.id,
        redirect_uri: CALLBACK,
        client: { id: registered.client_id, name: "Pipeline CRM", uri: "https://crm.example" },
        user: { id: session.user.id, email },
        scope: "openid email profile",
      });
      const approval = await supabase.auth.oauth.approveAuthorization(started.id, {
        skipBrowserRedirect: true,
      });
      expect(approval.error).toBeNull();
      const redirect = new URL(approval.data!.redirect_url);
      expect(redirect.searchParams.get("state")).toBe(started.state);

      const tokens = await oidc.authorizationCodeGrant(config, redirect, {
        pkceCodeVerifier: started.verifier,
        expectedState: started.state,
        expectedNonce: started.nonce,
        idTokenExpected: true,
      });
      // The ID token was verified by openid-client (signature against our JWKS, issuer,
      // audience, expiry, nonce); its claims follow the scopes.
      expect(tokens.claims()).toMatchObject({
        sub: session.user.id,
        aud: registered.client_id,
        email,
        email_verified: true,
        nonce: started.nonce,
      });
      expect(decodeJwt(tokens.access_token)).toMatchObject({
        sub: session.user.id,
        client_id: registered.client_id,
        scope: "openid email profile",
        role: "authenticated",
      });

      const info = await oidc.fetchUserInfo(config, tokens.access_token, session.user.id);
      expect(info).toMatchObject({ sub: session.user.id, email, email_verified: true });
      expect(info).not.toHaveProperty("phone");

      const refreshed = await oidc.refreshTokenGrant(config, tokens.refresh_token!);
      expect(refreshed.refresh_token).not.toBe(tokens.refresh_token);
      expect(decodeJwt(refreshed.access_token)).toMatchObject({
        client_id: registered.client_id,
      });
      // The client's session is the client's: the person's own refresh grant does not take it.
      const own = await auth("/token?grant_type=refresh_token", {
        method: "POST",
        body: JSON.stringify({ refresh_token: refreshed.refresh_token }),
      });
      expect(own.status).toBe(400);
      expect(await own.json()).toMatchObject({ error: "invalid_client" });

      // The grant is listed for the person, then revoked by the client (RFC 7009): both tokens die.
      const grants = await supabase.auth.oauth.listGrants();
      expect(grants.data).toEqual([
        {
          client: {
            id: registered.client_id,
            name: "Pipeline CRM",
            uri: "https://crm.example",
            logo_uri: "",
          },
          scopes: ["openid", "email", "profile"],
          granted_at: expect.any(String),
        },
      ]);
      await oidc.tokenRevocation(config, refreshed.refresh_token!);
      await expect(oidc.refreshTokenGrant(config, refreshed.refresh_token!)).rejects.toThrow();
      await expect(
        oidc.fetchUserInfo(config, refreshed.access_token, session.user.id),
      ).rejects.toThrow();
    });

    it("approves again without asking for scopes already allowed; the person's revocation ends the client's sessions", async () => {
      const registered = await registerClient();
      const config = await discover(server, registered);
      const { supabase } = await confirmedUser("oauth-again");
      const first = await approved(config, supabase, "email");
      const tokens = await oidc.authorizationCodeGrant(config, first.redirect, {
        pkceCodeVerifier: first.verifier,
        expectedState: first.state,
      });
      // Asked again for the same scope: no question, the code at once.
      const again = await startAuthorization(config, "email");
      const details = await supabase.auth.oauth.getAuthorizationDetails(again.id);
      expect(details.data).toEqual({ redirect_url: expect.stringContaining("code=") });
      // A wider scope is asked for.
      const wider = await startAuthorization(config, "email phone");
      expect((await supabase.auth.oauth.getAuthorizationDetails(wider.id)).data).toMatchObject({
        scope: "email phone",
      });

      const revoked = await supabase.auth.oauth.revokeGrant({ clientId: registered.client_id });
      expect(revoked.error).toBeNull();
      expect((await supabase.auth.oauth.listGrants()).data).toEqual([]);
      await expect(oidc.refreshTokenGrant(config, tokens.refresh_token!)).rejects.toThrow();
      const twice = await supabase.auth.oauth.revokeGrant({ clientId: registered.client_id });
      expect(twice.error).toMatchObject({ status: 404, code: "oauth_consent_not_found" });
    });

    it("sends a denial back to the client with its state", async () => {
      const config = await discover(server, await registerClient());
      const { supabase } = await confirmedUser("oauth-deny");
      const started = await startAuthorization(config);
      await supabase.auth.oauth.getAuthorizationDetails(started.id);
      const { data, error } = await supabase.auth.oauth.denyAuthorization(started.id, {
        skipBrowserRedirect: true,
      });
      expect(error).toBeNull();
      const back = new URL(data!.redirect_url);
      expect(`${back.origin}${back.pathname}`).toBe(CALLBACK);
      expect(Object.fromEntries(back.searchParams)).toEqual({
        error: "access_denied",
        error_description: "User denied the request",
        state: started.state,
      });
      // Answered once: a later approval is refused.
      const late = await supabase.auth.oauth.approveAuthorization(started.id, {
        skipBrowserRedirect: true,
      });
      expect(late.error).toMatchObject({ status: 400 });
    });

    it("refuses another person's authorization, and a code exchanged by another client", async () => {
      const registered = await registerClient();
      const config = await discover(server, registered);
      const owner = await confirmedUser("oauth-owner");
      const intruder = await confirmedUser("oauth-intruder");
      const started = await startAuthorization(config);
      expect(
        (await owner.supabase.auth.oauth.getAuthorizationDetails(started.id)).error,
      ).toBeNull();
      for (const answer of [
        intruder.supabase.auth.oauth.getAuthorizationDetails(started.id),
        intruder.supabase.auth.oauth.approveAuthorization(started.id, {
          skipBrowserRedirect: true,
        }),
      ])
        expect((await answer).error).toMatchObject({
          status: 404,
          code: "oauth_authorization_not_found",
        });

      const { redirect, verifier } = await approved(config, owner.supabase);
      const other = await registerClient();
      const res = await tokenRequest(
        server,
        {
          grant_type: "authorization_code",
          code: redirect.searchParams.get("code")!,
          code_verifier: verifier,
          redirect_uri: CALLBACK,
        },
        [other.client_id, other.client_secret!],
      );
      expect(res.status).toBe(400);
      expect(await res.json()).toEqual({
        error: "invalid_grant",
        error_description: "Authorization code was not issued for this client",
      });
    });

    it("uses a code once: a reused code is refused and ends the session it started", async () => {
      const registered = await registerClient();
      const config = await discover(server, registered);
      const { supabase } = await confirmedUser("oauth-reuse");
      const { redirect, verifier, state, nonce } = await approved(config, supabase);
      const tokens = await oidc.authorizationCodeGrant(config, redirect, {
        pkceCodeVerifier: verifier,
        expectedState: state,
        expectedNonce: nonce,
      });
      const form = {
        grant_type: "authorization_code",
        code: redirect.searchParams.get("code")!,
        code_verifier: verifier,
      };
      const again = await tokenRequest(server, form, [
        registered.client_id,
        registered.client_secret!,
      ]);
      expect(again.status).toBe(400);
      expect(await again.json()).toMatchObject({ error: "invalid_grant" });
      await expect(oidc.refreshTokenGrant(config, tokens.refresh_token!)).rejects.toThrow();
    });

    it("lets one of two exchanges of one code at the same moment through", async () => {
      const registered = await registerClient();
      const { supabase } = await confirmedUser("oauth-race");
      const config = await discover(server, registered);
      const { redirect, verifier } = await approved(config, supabase);
      const form = {
        grant_type: "authorization_code",
        code: redirect.searchParams.get("code")!,
        code_verifier: verifier,
      };
      const statuses = await Promise.all(
        [0, 1].map(
          async () =>
            (await tokenRequest(server, form, [registered.client_id, registered.client_secret!]))
              .status,
        ),
      );
      expect(statuses.sort()).toEqual([200, 400]);
    });

    it("refuses a redirect URI not registered without sending the browser there", async () => {
      const registered = await registerClient();
      const challenge = await oidc.calculatePKCECodeChallenge(oidc.randomPKCECodeVerifier());
      const query = (redirect: string) =>
        new URLSearchParams({
          client_id: registered.client_id,
          redirect_uri: redirect,
          response_type: "code",
          scope: "email",
          code_challenge: challenge,
          code_challenge_method: "S256",
        });
      for (const redirect of ["https://evil.example/callback", `${CALLBACK}/`, `${CALLBACK}?x=1`]) {
        const { status, res } = await follow(
          `${server.url}/auth/v1/oauth/authorize?${query(redirect)}`,
        );
        expect(status).toBe(400);
        expect(await res.json()).toMatchObject({
          code: "validation_failed",
          msg: "invalid redirect_uri",
        });
      }
    });

    it("requires an S256 PKCE challenge, and its verifier at the exchange", async () => {
      const registered = await registerClient();
      const config = await discover(server, registered);
      const base = {
        client_id: registered.client_id,
        redirect_uri: CALLBACK,
        response_type: "code",
        scope: "email",
        state: "s1",
      };
      const verifier = oidc.randomPKCECodeVerifier();
      for (const [extra, description] of [
        [{}, "PKCE flow requires both code_challenge and code_challenge_method"],
        [
          { code_challenge: verifier, code_challenge_method: "plain" },
          "code_challenge_method must be 'S256'",
        ],
        [{ code_challenge: "short", code_challenge_method: "S256" }, "between 43 and 128"],
        [
          {
            code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
            code_challenge_method: "S256",
            scope: "email admin",
          },
          "unsupported scope: admin",
        ],
      ] as const) {
        const { status, location } = await follow(
          `${server.url}/auth/v1/oauth/authorize?${new URLSearchParams({ ...base, ...extra })}`,
        );
        expect(status).toBe(302);
        const back = new URL(location!);
        expect(`${back.origin}${back.pathname}`).toBe(CALLBACK);
        expect(back.searchParams.get("error")).toBe("invalid_request");
        expect(back.searchParams.get("error_description")).toContain(description);
        expect(back.searchParams.get("state")).toBe("s1");
      }

      const { supabase } = await confirmedUser("oauth-pkce");
      const { redirect } = await approved(config, supabase);
      const code = redirect.searchParams.get("code")!;
      const secret: [string, string] = [registered.client_id, registered.client_secret!];
      for (const form of [
        { grant_type: "authorization_code", code } as Record<string, string>,
        { grant_type: "authorization_code", code, code_verifier: oidc.randomPKCECodeVerifier() },
      ]) {
        const res = await tokenRequest(server, form, secret);
        expect(res.status).toBe(400);
        expect(await res.json()).toMatchObject({
          error: "invalid_grant",
          error_description: expect.stringContaining("PKCE verification failed"),
        });
      }
    });

    it("refuses a wrong client secret, a method the client did not register, and an expired code", async () => {
      const registered = await registerClient();
      const config = await discover(server, registered);
      const { supabase } = await confirmedUser("oauth-secret");
      const { redirect, verifier, id } = await approved(config, supabase);
      const form = {
        grant_type: "authorization_code",
        code: redirect.searchParams.get("code")!,
        code_verifier: verifier,
      };
      const wrong = await tokenRequest(server, form, [registered.client_id, "not-the-secret"]);
      expect(wrong.status).toBe(400);
      expect(await wrong.json()).toMatchObject({ code: "invalid_credentials" });
      const posted = await tokenRequest(server, {
        ...form,
        client_id: registered.client_id,
        client_secret: registered.client_secret!,
      });
      expect(posted.status).toBe(400);
      expect((await posted.json()).msg).toContain("registered for 'client_secret_basic'");
      // The code outlives its authorization's time by nothing.
      await ctx.db.query(
        `UPDATE auth.oauth_authorizations SET created_at = now() - interval '20 minutes',
           expires_at = now() - interval '1 second' WHERE authorization_id = $1`,
        [id],
      );
      const expired = await tokenRequest(server, form, [
        registered.client_id,
        registered.client_secret!,
      ]);
      expect(expired.status).toBe(400);
      expect(await expired.json()).toEqual({
        error: "invalid_grant",
        error_description: "Authorization code has expired",
      });
    });

    it("lets a public client exchange its code with the verifier alone", async () => {
      const registered = await registerClient({ client_type: "public" });
      const config = await discover(server, registered);
      const { supabase, session } = await confirmedUser("oauth-public");
      const { redirect, verifier, state, nonce } = await approved(config, supabase, "openid phone");
      const tokens = await oidc.authorizationCodeGrant(config, redirect, {
        pkceCodeVerifier: verifier,
        expectedState: state,
        expectedNonce: nonce,
      });
      expect(tokens.claims()).toMatchObject({ sub: session.user.id, phone_number_verified: false });
      expect(tokens.claims()).not.toHaveProperty("email");
    });
  },
  {
    GOTRUE_OAUTH_SERVER_ENABLED: "true",
    GOTRUE_OAUTH_SERVER_ALLOW_DYNAMIC_REGISTRATION: "true",
    GOTRUE_JWT_KEYS: JSON.stringify([signing]),
  },
);

describeAuthSuite("auth: the OAuth 2.1 server switched off", ({ server, auth }) => {
  it("answers GoTrue's feature_disabled on every OAuth route, and publishes OpenID discovery only", async () => {
    for (const [method, path] of [
      ["GET", "/admin/oauth/clients"],
      ["GET", "/oauth/authorize?client_id=x&redirect_uri=y"],
      ["POST", "/oauth/token"],
      ["GET", "/user/oauth/grants"],
      ["GET", "/.well-known/oauth-authorization-server"],
    ]) {
      const res = await auth(path!, {
        method,
        headers: { authorization: `Bearer ${server.serviceRoleKey}` },
      });
      expect([path, res.status, (await res.json()).code]).toEqual([path, 404, "feature_disabled"]);
    }
    const discovery = await auth("/.well-known/openid-configuration");
    expect(discovery.status).toBe(200);
    expect(await discovery.json()).not.toHaveProperty("registration_endpoint");
  });
});
