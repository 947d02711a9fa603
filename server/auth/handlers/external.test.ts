// Sign-in with an external OpenID provider through the real supabase-js client: a real provider
// (oidc-provider on loopback) as the company's Keycloak. The implicit and PKCE flows, GoTrue's
// rules for whose account a provider's person is (one identity per provider and subject, linked by
// a verified address only, an unverified one never taking an account over, a pre-registered
// password voided), and the attacks on the flow: forged, replayed, expired and raced states, a
// code injected from another sign-in, a person declining at the provider.
import { afterAll, expect, it } from "vitest";
import {
  describeAuthSuite,
  describeAuthSuiteEachDatabase,
} from "../../../tests/support/auth-suite.ts";
import { PASSWORD, uniqueEmail } from "../../../tests/support/auth.ts";
import { providerRoundTrip, startIdp } from "../../../tests/support/identity-provider.ts";

const keycloak = await startIdp({ path: "/realms/revwise" });
afterAll(() => keycloak.close());

let lastSubject = 0;
/** A person at the provider: a subject of their own, with these claims. */
function providerAccount(claims: { email?: string; email_verified?: boolean; name?: string }) {
  const subject = `kc-${Date.now()}-${++lastSubject}`;
  keycloak.accounts.set(subject, { name: "Dana Reyes", ...claims });
  return subject;
}

const fragmentOf = (url: string) => new URLSearchParams(new URL(url).hash.slice(1));
const queryOf = (url: string) => new URL(url).searchParams;

describeAuthSuiteEachDatabase(
  "auth: sign-in with an external OpenID provider",
  ({ server, client, auth, confirmedUser, count, ctx, emailTo }) => {
    const back = () => `${server.url}/account`;

    /** GET /authorize as the browser follows it: the provider's URL it is sent to. */
    async function startAt(url: string) {
      const res = await fetch(url, { redirect: "manual" });
      expect(res.status).toBe(302);
      return res.headers.get("location")!;
    }

    /** Our callback's answer to the URL the provider sent the browser to. */
    async function callback(url: string) {
      const res = await fetch(url, { redirect: "manual" });
      return { status: res.status, location: res.headers.get("location")! };
    }

    /** A whole implicit sign-in: the place the browser lands on, with its fragment. */
    async function implicitSignIn(subject: string) {
      const supabase = client();
      const { data, error } = await supabase.auth.signInWithOAuth({
        provider: "keycloak",
        options: { redirectTo: back(), skipBrowserRedirect: true },
      });
      expect(error).toBeNull();
      const landed = await callback(await keycloak.signIn(await startAt(data.url!), subject));
      return { supabase, ...landed };
    }

    it("lists the provider in /settings", async () => {
      const settings = (await (await auth("/settings")).json()) as {
        external: Record<string, boolean>;
      };
      expect(settings.external.keycloak).toBe(true);
      expect(settings.external.google).toBe(false);
    });

    it("sends the browser to the provider with a state, a nonce and a PKCE challenge", async () => {
      const { data } = await client().auth.signInWithOAuth({
        provider: "keycloak",
        options: { redirectTo: back(), skipBrowserRedirect: true, scopes: "offline_access" },
      });
      const to = new URL(await startAt(data.url!));
      expect(to.origin).toBe(new URL(keycloak.issuer).origin);
      const q = to.searchParams;
      expect(q.get("client_id")).toBe(keycloak.clientId);
      expect(q.get("redirect_uri")).toBe(`${server.url}/auth/v1/callback`);
      expect(q.get("response_type")).toBe("code");
      expect(q.get("scope")).toBe("openid email profile offline_access");
      expect(q.get("state")).toMatch(/^[0-9a-f-]{36}$/);
      expect(q.get("nonce")).toBeTruthy();
      expect(q.get("code_challenge_method")).toBe("S256");
      expect(q.get("code_challenge")).toMatch(/^[\w-]{43}$/);
    });

    it("refuses an unknown or switched-off provider as GoTrue does", async () => {
      for (const [provider, reason] of [
        ["google", "provider is not enabled"],
        ["myspace", "Provider myspace could not be found"],
      ]) {
        const res = await auth(`/authorize?provider=${provider}`);
        expect(res.status).toBe(400);
        expect(await res.json()).toMatchObject({
          error_code: "validation_failed",
          msg: `Unsupported provider: ${reason}`,
        });
      }
    });

    it("signs a new person up and in (implicit flow): the session in the fragment", async () => {
      const email = uniqueEmail("kc-new");
      const subject = providerAccount({ email, email_verified: true });
      const { supabase, status, location } = await implicitSignIn(subject);
      expect(status).toBe(302);
      expect(location.split("#")[0]).toBe(back());
      const f = fragmentOf(location);
      expect([...f.keys()].sort()).toEqual([
        "access_token",
        "expires_at",
        "expires_in",
        "provider_token",
        "refresh_token",
        "token_type",
      ]);
      const { data, error } = await supabase.auth.setSession({
        access_token: f.get("access_token")!,
        refresh_token: f.get("refresh_token")!,
      });
      expect(error).toBeNull();
      const user = data.user!;
      expect(user.email).toBe(email);
      expect(user.email_confirmed_at).toBeTruthy();
      expect(user.app_metadata).toMatchObject({ provider: "keycloak", providers: ["keycloak"] });
      expect(user.user_metadata).toMatchObject({ full_name: "Dana Reyes", sub: subject });
      expect(user.identities!.map((i) => [i.provider, i.id])).toEqual([["keycloak", subject]]);
      // Signing in again finds the same account by its identity.
      const again = await implicitSignIn(subject);
      const second = await supabase.auth.setSession({
        access_token: fragmentOf(again.location).get("access_token")!,
        refresh_token: fragmentOf(again.location).get("refresh_token")!,
      });
      expect(second.data.user!.id).toBe(user.id);
    });

    it("signs in with the PKCE flow: a code in the query, exchanged by the client", async () => {
      const email = uniqueEmail("kc-pkce");
      const subject = providerAccount({ email, email_verified: true });
      const supabase = server.client({ pkce: true });
      const { data } = await supabase.auth.signInWithOAuth({
        provider: "keycloak",
        options: { redirectTo: back(), skipBrowserRedirect: true },
      });
      const { location } = await callback(await keycloak.signIn(await startAt(data.url!), subject));
      const code = queryOf(location).get("code")!;
      expect(code).toMatch(/^[0-9a-f-]{36}$/);
      expect(new URL(location).hash).toBe("");
      const exchanged = await supabase.auth.exchangeCodeForSession(code);
      expect(exchanged.error).toBeNull();
      expect(exchanged.data.session!.user.email).toBe(email);
      expect(exchanged.data.session!.provider_token).toBeTruthy();
      // The code is spent.
      const twice = await server
        .client({ pkce: true })
        .auth.exchangeCodeForSession(code)
        .catch((e: unknown) => ({ error: e }));
      expect(twice.error).toBeTruthy();
    });

    it("links an account whose address the provider verified; its password still signs in", async () => {
      const { email, session } = await confirmedUser("kc-link");
      const subject = providerAccount({ email, email_verified: true });
      const { location } = await implicitSignIn(subject);
      const f = fragmentOf(location);
      const supabase = client();
      const { data } = await supabase.auth.setSession({
        access_token: f.get("access_token")!,
        refresh_token: f.get("refresh_token")!,
      });
      expect(data.user!.id).toBe(session.user.id);
      expect(data.user!.identities!.map((i) => i.provider).sort()).toEqual(["email", "keycloak"]);
      expect(data.user!.app_metadata.providers).toEqual(["email", "keycloak"]);
      expect(
        (await client().auth.signInWithPassword({ email, password: PASSWORD })).error,
      ).toBeNull();
    });

    it("never lets an address the provider did not verify take an account over", async () => {
      const { email, session } = await confirmedUser("kc-unverified");
      const subject = providerAccount({ email, email_verified: false });
      const { status, location } = await implicitSignIn(subject);
      expect(status).toBe(302);
      const q = queryOf(location);
      expect(q.get("error")).toBe("access_denied");
      expect(q.get("error_code")).toBe("provider_email_needs_verification");
      expect(q.get("error_description")).toBe(
        "Unverified email with keycloak. Verify the email with keycloak in order to sign in",
      );
      const f = fragmentOf(location);
      expect(f.get("error_code")).toBe("provider_email_needs_verification");
      expect(f.has("sb")).toBe(true);
      expect(f.has("access_token")).toBe(false);
      // The account keeps its one identity; the provider's person got an account of their own,
      // without the address.
      expect(
        await count("SELECT count(*)::int AS n FROM auth.identities WHERE user_id = $1", [
          session.user.id,
        ]),
      ).toBe(1);
      const [own] = await ctx.db.query<{ email: string | null }>(
        "SELECT u.email FROM auth.identities i JOIN auth.users u ON u.id = i.user_id WHERE i.provider_id = $1",
        [subject],
      );
      expect(own!.email).toBeNull();
    });

    it("voids a password set on the address before its owner proved it through the provider", async () => {
      const email = uniqueEmail("kc-prehijack");
      // Somebody signs up with the owner's address and a password of their own, unconfirmed.
      expect((await client().auth.signUp({ email, password: PASSWORD })).error).toBeNull();
      const subject = providerAccount({ email, email_verified: true });
      const { location } = await implicitSignIn(subject);
      expect(fragmentOf(location).get("access_token")).toBeTruthy();
      const { error } = await client().auth.signInWithPassword({ email, password: PASSWORD });
      expect(error?.code).toBe("invalid_credentials");
      const [user] = await ctx.db.query<{ email_confirmed_at: Date | null }>(
        "SELECT email_confirmed_at FROM auth.users WHERE lower(email) = $1",
        [email],
      );
      expect(user!.email_confirmed_at).toBeTruthy();
    });

    it("sends an unverified new address a confirmation email and no session", async () => {
      const email = uniqueEmail("kc-confirm");
      const subject = providerAccount({ email, email_verified: false });
      const { location } = await implicitSignIn(subject);
      expect(queryOf(location).get("error_description")).toBe(
        "Unverified email with keycloak. A confirmation email has been sent to your keycloak email",
      );
      expect(
        await count("SELECT count(*)::int AS n FROM auth.users WHERE email = $1", [email]),
      ).toBe(1);
      expect((await emailTo(email, "Confirm your Revwise account")).subject).toBeTruthy();
    });

    it("refuses a missing, malformed, forged, replayed or expired state, at SITE_URL (303)", async () => {
      const at = (status: number, location: string) => ({
        status,
        site: location.split("?")[0],
        q: Object.fromEntries(queryOf(location)),
      });
      const expectRefusal = async (url: string, code: string, description: string) =>
        expect(at(...(Object.values(await callback(url)) as [number, string]))).toEqual({
          status: 303,
          site: server.url,
          q: { error: "invalid_request", error_code: code, error_description: description },
        });
      const cb = `${server.url}/auth/v1/callback`;
      await expectRefusal(`${cb}?code=x`, "bad_oauth_callback", "OAuth state parameter missing");
      await expectRefusal(
        `${cb}?code=x&state=eyJhbGciOiJIUzI1NiJ9.e30.x`,
        "bad_oauth_state",
        "OAuth state parameter is invalid",
      );
      await expectRefusal(
        `${cb}?code=x&state=${crypto.randomUUID()}`,
        "bad_oauth_state",
        "OAuth state not found or expired",
      );

      const subject = providerAccount({ email: uniqueEmail("kc-replay"), email_verified: true });
      const { data } = await client().auth.signInWithOAuth({
        provider: "keycloak",
        options: { redirectTo: back(), skipBrowserRedirect: true },
      });
      const returned = await keycloak.signIn(await startAt(data.url!), subject);
      expect(fragmentOf((await callback(returned)).location).get("access_token")).toBeTruthy();
      await expectRefusal(returned, "bad_oauth_state", "OAuth state not found or expired");

      const late = await client().auth.signInWithOAuth({
        provider: "keycloak",
        options: { redirectTo: back(), skipBrowserRedirect: true },
      });
      const lateReturn = await keycloak.signIn(await startAt(late.data.url!), subject);
      await ctx.db.query(
        "UPDATE auth.flow_states SET created_at = now() - interval '301 seconds' WHERE id = $1",
        [queryOf(lateReturn).get("state")],
      );
      await expectRefusal(lateReturn, "bad_oauth_state", "OAuth state has expired");
    });

    it("answers a replayed PKCE state as already used", async () => {
      const subject = providerAccount({
        email: uniqueEmail("kc-pkce-replay"),
        email_verified: true,
      });
      const { data } = await server.client({ pkce: true }).auth.signInWithOAuth({
        provider: "keycloak",
        options: { redirectTo: back(), skipBrowserRedirect: true },
      });
      const returned = await keycloak.signIn(await startAt(data.url!), subject);
      expect(queryOf((await callback(returned)).location).get("code")).toBeTruthy();
      const again = await callback(returned);
      expect(again.status).toBe(303);
      expect(Object.fromEntries(queryOf(again.location))).toEqual({
        error: "invalid_request",
        error_code: "flow_state_already_used",
        error_description: "State has already been used",
      });
    });

    it("lets one of two callbacks racing with one state through", async () => {
      const subject = providerAccount({ email: uniqueEmail("kc-race"), email_verified: true });
      const { data } = await client().auth.signInWithOAuth({
        provider: "keycloak",
        options: { redirectTo: back(), skipBrowserRedirect: true },
      });
      const returned = await keycloak.signIn(await startAt(data.url!), subject);
      const answers = await Promise.all([callback(returned), callback(returned)]);
      const sessions = answers.filter((a) => fragmentOf(a.location).get("access_token"));
      expect(sessions).toHaveLength(1);
      expect(answers.map((a) => a.status).sort()).toEqual([302, 303]);
    });

    it("refuses a code injected from another sign-in: the provider's PKCE check fails", async () => {
      const attacker = providerAccount({ email: uniqueEmail("kc-attacker"), email_verified: true });
      const victim = providerAccount({ email: uniqueEmail("kc-victim"), email_verified: true });
      const start = async () =>
        startAt(
          (
            await client().auth.signInWithOAuth({
              provider: "keycloak",
              options: { redirectTo: back(), skipBrowserRedirect: true },
            })
          ).data.url!,
        );
      const attackers = new URL(await keycloak.signIn(await start(), attacker));
      const victims = new URL(await keycloak.signIn(await start(), victim));
      // The attacker's code with the victim's state.
      victims.searchParams.set("code", attackers.searchParams.get("code")!);
      const { status, location } = await callback(victims.href);
      expect(status).toBe(302);
      expect(location.split("?")[0]).toBe(back());
      expect(Object.fromEntries(queryOf(location))).toEqual({
        error: "server_error",
        error_code: "unexpected_failure",
        error_description: `Unable to exchange external code: ${attackers.searchParams.get("code")!.slice(0, 4)}`,
      });
      expect(fragmentOf(location).has("access_token")).toBe(false);
    });

    it("links a signed-in user's identity at the provider, and unlinks it (never the last)", async () => {
      const { supabase, session } = await confirmedUser("kc-linker");
      const otherEmail = uniqueEmail("kc-other");
      const subject = providerAccount({ email: otherEmail, email_verified: true });
      const { data, error } = await supabase.auth.linkIdentity({
        provider: "keycloak",
        options: { redirectTo: back(), skipBrowserRedirect: true },
      });
      expect(error).toBeNull();
      const { location } = await callback(await keycloak.signIn(data.url!, subject));
      const f = fragmentOf(location);
      const linked = client();
      const { data: signedIn } = await linked.auth.setSession({
        access_token: f.get("access_token")!,
        refresh_token: f.get("refresh_token")!,
      });
      expect(signedIn.user!.id).toBe(session.user.id);
      const identities = (await linked.auth.getUserIdentities()).data!.identities;
      expect(identities.map((i) => i.provider)).toEqual(["email", "keycloak"]);
      // Each identity names its own address: the provider's for the provider's.
      expect(identities.map((i) => (i as { email?: string }).email)).toEqual([
        session.user.email,
        otherEmail,
      ]);
      // The identity is this account's now: signing in with it finds the account.
      const again = await implicitSignIn(subject);
      expect(fragmentOf(again.location).get("access_token")).toBeTruthy();
      // Linking it again, here or to another account, is refused.
      const other = await confirmedUser("kc-linker-2");
      const second = await other.supabase.auth.linkIdentity({
        provider: "keycloak",
        options: { redirectTo: back(), skipBrowserRedirect: true },
      });
      const refused = await callback(await keycloak.signIn(second.data.url!, subject));
      // GoTrue names no OAuth error for a 422: server_error.
      expect(Object.fromEntries(queryOf(refused.location))).toEqual({
        error: "server_error",
        error_code: "identity_already_exists",
        error_description: "Identity is already linked to another user",
      });
      const keycloakIdentity = identities.find((i) => i.provider === "keycloak")!;
      expect((await linked.auth.unlinkIdentity(keycloakIdentity)).error).toBeNull();
      const left = (await linked.auth.getUserIdentities()).data!.identities;
      expect(left.map((i) => i.provider)).toEqual(["email"]);
      const last = await linked.auth.unlinkIdentity(left[0]!);
      expect(last.error?.code).toBe("single_identity_not_deletable");
    });

    it("hands the provider's refusal on: a person who declines lands back with its error", async () => {
      const { data } = await client().auth.signInWithOAuth({
        provider: "keycloak",
        options: { redirectTo: back(), skipBrowserRedirect: true },
      });
      const returned = await keycloak.signIn(await startAt(data.url!), "", { decline: true });
      const { status, location } = await callback(returned);
      expect(status).toBe(302);
      expect(Object.fromEntries(queryOf(location))).toEqual({
        error: "access_denied",
        error_description: "The person declined to sign in",
      });
    });
  },
  {
    GOTRUE_SECURITY_MANUAL_LINKING_ENABLED: "true",
    ...keycloak.env("KEYCLOAK"),
  },
);

describeAuthSuite(
  "auth: an external provider's proof of an address confirmed as given",
  ({ server, client }) => {
    it("removes what a squatter linked to the address before its owner proved it", async () => {
      const email = uniqueEmail("kc-squatted");
      // MAILER_AUTOCONFIRM: a squatter's sign-up with the owner's address is signed in at once,
      // and links an identity of their own to it.
      const squatter = client();
      expect((await squatter.auth.signUp({ email, password: PASSWORD })).error).toBeNull();
      const theirs = providerAccount({ email: uniqueEmail("kc-squatter"), email_verified: true });
      const { data } = await squatter.auth.linkIdentity({
        provider: "keycloak",
        options: { redirectTo: `${server.url}/account`, skipBrowserRedirect: true },
      });
      await providerRoundTrip(keycloak, data.url!, theirs);
      // The owner signs in through the provider, which verified the address.
      const owners = providerAccount({ email, email_verified: true });
      const signUpUrl = (
        await client().auth.signInWithOAuth({
          provider: "keycloak",
          options: { redirectTo: `${server.url}/account`, skipBrowserRedirect: true },
        })
      ).data.url!;
      const owner = fragmentOf((await providerRoundTrip(keycloak, signUpUrl, owners)).location);
      const session = await client().auth.setSession({
        access_token: owner.get("access_token")!,
        refresh_token: owner.get("refresh_token")!,
      });
      expect(session.data.user!.identities!.map((i) => i.id).sort()).toEqual(
        [owners, session.data.user!.id].sort(),
      );
      // The squatter's password, session and identity open nothing of it any more.
      expect(
        (await client().auth.signInWithPassword({ email, password: PASSWORD })).error?.code,
      ).toBe("invalid_credentials");
      expect((await squatter.auth.refreshSession()).error).toBeTruthy();
      const again = await client().auth.signInWithOAuth({
        provider: "keycloak",
        options: { redirectTo: `${server.url}/account`, skipBrowserRedirect: true },
      });
      const theirsNow = fragmentOf(
        (await providerRoundTrip(keycloak, again.data.url!, theirs)).location,
      );
      const other = await client().auth.setSession({
        access_token: theirsNow.get("access_token")!,
        refresh_token: theirsNow.get("refresh_token")!,
      });
      expect(other.data.user!.id).not.toBe(session.data.user!.id);
    });
  },
  {
    MAILER_AUTOCONFIRM: "true",
    GOTRUE_SECURITY_MANUAL_LINKING_ENABLED: "true",
    ...keycloak.env("KEYCLOAK"),
  },
);
