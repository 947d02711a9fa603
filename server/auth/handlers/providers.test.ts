// Each provider as its own kind answers, through the real supabase-js client: real OpenID providers
// on loopback (oidc-provider) standing in for Google, a Microsoft Entra tenant, Apple and a
// company's Keycloak, and real OAuth 2.0 sites standing in for GitHub and GitLab. Redirect
// sign-ins read each provider's person as GoTrue does (which addresses are verified); the id_token
// grant (signInWithIdToken) takes each OpenID issuer's tokens, refuses forged ones in GoTrue's
// words (another audience, another issuer, expired, another key, a wrong or missing nonce), links an
// identity to a signed-in user, and two first sign-ins of one person at once make one account.
import crypto from "node:crypto";
import { afterAll, expect, it } from "vitest";
import { describeAuthSuiteEachDatabase } from "../../../tests/support/auth-suite.ts";
import { uniqueEmail } from "../../../tests/support/auth.ts";
import { providerRoundTrip, startIdp } from "../../../tests/support/identity-provider.ts";
import { startOAuthSite, type SiteUser } from "../../../tests/support/oauth-site.ts";

const google = await startIdp();
const azure = await startIdp({ path: "/7f3c6a1e-tenant/v2.0" });
const apple = await startIdp({ clientId: "com.revwise.app" });
const keycloak = await startIdp({ path: "/realms/acme" });
/** An OpenID issuer of no provider's, allowed for ID tokens (GOTRUE_EXTERNAL_ALLOWED_ID_TOKEN_ISSUERS). */
const allowed = await startIdp({ path: "/realms/partner", clientId: "partner-app" });
const github = await startOAuthSite("github");
const gitlab = await startOAuthSite("gitlab");
afterAll(async () => {
  for (const provider of [google, azure, apple, keycloak, allowed, github, gitlab])
    await provider.close();
});

let subjects = 0;
const subject = (label: string) => `${label}-${Date.now()}-${++subjects}`;
const sha256 = (text: string) => crypto.createHash("sha256").update(text).digest("hex");
const fragmentOf = (url: string) => new URLSearchParams(new URL(url).hash.slice(1));
const queryOf = (url: string) => new URLSearchParams(new URL(url).search);

describeAuthSuiteEachDatabase(
  "auth: each external provider",
  ({ server, client, confirmedUser, auth }) => {
    const back = () => `${server.url}/account`;

    /** A redirect sign-in with `provider` (PKCE): the session, or where the browser landed. */
    async function redirectSignIn(provider: "google" | "azure" | "github" | "gitlab", sub: string) {
      const supabase = server.client({ pkce: true });
      const { data } = await supabase.auth.signInWithOAuth({
        provider,
        options: { redirectTo: back(), skipBrowserRedirect: true },
      });
      const idp = provider === "google" ? google : azure;
      const { location } =
        provider === "github" || provider === "gitlab"
          ? await siteRoundTrip(data.url!)
          : await providerRoundTrip(idp, data.url!, sub);
      const code = queryOf(location).get("code");
      if (!code) return { landed: location };
      const { data: exchanged, error } = await supabase.auth.exchangeCodeForSession(code);
      expect(error).toBeNull();
      return { session: exchanged.session! };
    }

    /** Through an OAuth 2.0 site, which signs its next person in at once. */
    async function siteRoundTrip(authorizeUrl: string) {
      const start = await fetch(authorizeUrl, { redirect: "manual" });
      const atSite = await fetch(start.headers.get("location")!, { redirect: "manual" });
      const res = await fetch(atSite.headers.get("location")!, { redirect: "manual" });
      return { location: res.headers.get("location")! };
    }

    it("signs in with Google: its ID token's verified address, its hosted domain", async () => {
      const sub = subject("google");
      const email = uniqueEmail("google");
      google.accounts.set(sub, {
        email,
        email_verified: true,
        name: "Ana Silva",
        hd: "acme.example",
      });
      const { session } = await redirectSignIn("google", sub);
      expect(session!.user.email).toBe(email);
      expect(session!.user.app_metadata.provider).toBe("google");
      expect(session!.user.identities![0]!.identity_data).toMatchObject({
        sub,
        email,
        email_verified: true,
        full_name: "Ana Silva",
        iss: google.issuer,
        custom_claims: { hd: "acme.example" },
      });
    });

    it("signs in with a Microsoft tenant; an address whose domain owner is unverified stays unproven", async () => {
      const verified = subject("azure");
      const email = uniqueEmail("azure");
      azure.accounts.set(verified, { email, name: "Lee Park" });
      const { session } = await redirectSignIn("azure", verified);
      expect(session!.user.email).toBe(email);
      expect(session!.user.identities![0]!.identity_data).toMatchObject({ iss: azure.issuer });

      const unverified = subject("azure-edov");
      azure.accounts.set(unverified, { email: uniqueEmail("azure-edov"), xms_edov: false });
      const { landed } = await redirectSignIn("azure", unverified);
      expect(queryOf(landed!).get("error_code")).toBe("provider_email_needs_verification");
    });

    it("signs in with GitHub by its primary verified address", async () => {
      const email = uniqueEmail("github");
      const user: SiteUser = {
        id: 583231,
        login: "octo-dana",
        name: "Dana Octo",
        emails: [
          { email: uniqueEmail("github-other"), verified: false, primary: false },
          { email, verified: true, primary: true },
        ],
      };
      github.signInAs(user);
      const { session } = await redirectSignIn("github", "");
      expect(session!.user.email).toBe(email);
      expect(session!.user.identities![0]).toMatchObject({ provider: "github", id: "583231" });
      expect(session!.user.user_metadata).toMatchObject({
        user_name: "octo-dana",
        full_name: "Dana Octo",
      });
    });

    it("signs in with GitLab once GitLab confirmed the address, not before", async () => {
      const email = uniqueEmail("gitlab");
      gitlab.signInAs({
        id: 9001,
        name: "Sam Lab",
        email,
        confirmed_at: "2024-01-02T00:00:00Z",
        emails: [],
      });
      const { session } = await redirectSignIn("gitlab", "");
      expect(session!.user.email).toBe(email);
      gitlab.signInAs({
        id: 9002,
        email: uniqueEmail("gitlab-new"),
        confirmed_at: null,
        emails: [],
      });
      const { landed } = await redirectSignIn("gitlab", "");
      expect(queryOf(landed!).get("error_code")).toBe("provider_email_needs_verification");
    });

    it("takes each OpenID issuer's ID token (signInWithIdToken), its nonce's hash checked", async () => {
      for (const [provider, idp, claims] of [
        ["google", google, {}],
        ["azure", azure, {}],
        ["apple", apple, { email_verified: "false" }], // Apple's addresses count as verified
        ["keycloak", keycloak, { email_verified: true }],
      ] as const) {
        const email = uniqueEmail(`idtoken-${provider}`);
        const nonce = crypto.randomUUID();
        const token = await idp.idToken({
          sub: subject(provider),
          email,
          email_verified: true,
          nonce: sha256(nonce),
          ...claims,
        });
        const { data, error } = await client().auth.signInWithIdToken({ provider, token, nonce });
        expect([provider, error]).toEqual([provider, null]);
        expect(data.user!.email).toBe(email);
        expect(data.user!.app_metadata.provider).toBe(provider);
      }
    });

    it("refuses forged ID tokens in GoTrue's words", async () => {
      const base = { sub: subject("forged"), email: uniqueEmail("forged"), email_verified: true };
      const now = Math.floor(Date.now() / 1000);
      const refusal = async (token: string, nonce?: string) =>
        (await client().auth.signInWithIdToken({ provider: "google", token, nonce })).error
          ?.message;
      expect(await refusal(await google.idToken({ ...base, aud: "someone-else" }))).toBe(
        "Unacceptable audience in id_token: [someone-else]",
      );
      // Google's key, another issuer named in it.
      expect(await refusal(await google.idToken({ ...base, iss: "https://evil.example" }))).toBe(
        "Bad ID token",
      );
      // Microsoft's token, signed by Microsoft's key, shown as Google's.
      expect(await refusal(await azure.idToken({ ...base, aud: google.clientId }))).toBe(
        "Bad ID token",
      );
      expect(
        await refusal(await google.idToken({ ...base, iat: now - 7200, exp: now - 3600 })),
      ).toBe("Bad ID token");
      expect(await refusal(await google.foreignIdToken(base))).toBe("Bad ID token");
      expect(await refusal(`${(await google.idToken(base)).slice(0, -4)}AAAA`)).toBe(
        "Bad ID token",
      );
      expect(await refusal(await google.idToken({ ...base, nonce: sha256("one") }), "two")).toBe(
        "Nonces mismatch",
      );
      expect(await refusal(await google.idToken({ ...base, nonce: sha256("one") }))).toBe(
        "Passed nonce and nonce in id_token should either both exist or not.",
      );
      expect(await refusal(await google.idToken(base), "unasked")).toBe(
        "Passed nonce and nonce in id_token should either both exist or not.",
      );
      // A token shown with an access token it does not name (at_hash), and with the one it does.
      const atHash = (token: string) =>
        crypto.createHash("sha256").update(token).digest().subarray(0, 16).toString("base64url");
      const named = await google.idToken({ ...base, at_hash: atHash("the-access-token") });
      const withAccessToken = (access_token: string) =>
        client().auth.signInWithIdToken({ provider: "google", token: named, access_token });
      expect((await withAccessToken("another-access-token")).error?.message).toBe("Bad ID token");
      expect((await withAccessToken("the-access-token")).error).toBeNull();
      // A provider that is off here, by name.
      const off = await client().auth.signInWithIdToken({
        provider: "kakao",
        token: await google.idToken(base),
      });
      expect(off.error?.code).toBe("provider_disabled");
    });

    it("takes an allowed issuer's ID token named by issuer and client_id, and no other issuer's", async () => {
      const grant = (body: Record<string, unknown>) =>
        auth("/token?grant_type=id_token", { method: "POST", body: JSON.stringify(body) });
      const email = uniqueEmail("allowed-issuer");
      const nonce = crypto.randomUUID();
      const id_token = await allowed.idToken({
        sub: subject("partner"),
        email,
        email_verified: true,
        nonce: sha256(nonce),
      });
      const res = await grant({
        id_token,
        issuer: allowed.issuer,
        client_id: "partner-app",
        nonce,
      });
      expect(res.status).toBe(200);
      const body = (await res.json()) as { user: { email: string; app_metadata: unknown } };
      expect(body.user.email).toBe(email);
      expect(body.user.app_metadata).toMatchObject({ provider: allowed.issuer });
      // The token's audience must be the client named.
      const other = await grant({ id_token, issuer: allowed.issuer, client_id: "another", nonce });
      expect(await other.json()).toMatchObject({
        error: "invalid request",
        error_description: "Unacceptable audience in id_token: [partner-app]",
      });
      const refused = await grant({
        id_token,
        issuer: "https://not-allowed.example",
        client_id: "partner-app",
      });
      expect(refused.status).toBe(400);
      expect(await refused.json()).toMatchObject({
        error_code: "validation_failed",
        msg: 'Custom OIDC provider "" not allowed',
      });
    });

    it("links an ID token's identity to the signed-in user (link_identity)", async () => {
      const { supabase, session } = await confirmedUser("idtoken-link");
      const sub = subject("google-link");
      const token = await google.idToken({
        sub,
        email: uniqueEmail("other"),
        email_verified: true,
      });
      const { data, error } = await supabase.auth.linkIdentity({ provider: "google", token });
      expect(error).toBeNull();
      expect(data.user!.id).toBe(session.user.id);
      expect(data.user!.identities!.map((i) => i.provider).sort()).toEqual(["email", "google"]);
    });

    it("makes one account of two first sign-ins of one person at the same moment", async () => {
      const claims = { sub: subject("race"), email: uniqueEmail("race"), email_verified: true };
      const [a, b] = await Promise.all(
        [0, 1].map(async () =>
          client().auth.signInWithIdToken({
            provider: "keycloak",
            token: await keycloak.idToken(claims),
          }),
        ),
      );
      expect([a!.error, b!.error]).toEqual([null, null]);
      expect(a!.data.user!.id).toBe(b!.data.user!.id);
    });

    it("keeps the implicit flow's fragment for redirect sign-ins too", async () => {
      const sub = subject("google-implicit");
      google.accounts.set(sub, { email: uniqueEmail("google-implicit"), email_verified: true });
      const { data } = await client().auth.signInWithOAuth({
        provider: "google",
        options: { redirectTo: back(), skipBrowserRedirect: true },
      });
      const { location } = await providerRoundTrip(google, data.url!, sub);
      expect(fragmentOf(location).get("provider_token")).toBeTruthy();
    });
  },
  {
    GOTRUE_SECURITY_MANUAL_LINKING_ENABLED: "true",
    ...google.env("GOOGLE"),
    ...azure.env("AZURE"),
    ...keycloak.env("KEYCLOAK"),
    GOTRUE_EXTERNAL_APPLE_ENABLED: "true",
    GOTRUE_EXTERNAL_APPLE_CLIENT_ID: apple.clientId,
    GOTRUE_EXTERNAL_APPLE_URL: apple.issuer,
    ...github.env("GITHUB"),
    ...gitlab.env("GITLAB"),
    GOTRUE_EXTERNAL_ALLOWED_ID_TOKEN_ISSUERS: `https://accounts.google.com, ${allowed.issuer}`,
  },
);
