// A real OpenID provider on loopback, standing in for Google, Microsoft or a company's Keycloak:
// the certified `oidc-provider` library with one confidential client, a login page of its own
// (any account the test made signs in by its subject), and its signing key at hand so a test can
// sign ID tokens of its own (another audience, expired, another nonce). `signIn` walks its pages
// as a browser would (cookies kept, redirects followed) until it sends the browser away: the URL
// it sent it to (our callback) is the answer.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { exportJWK, generateKeyPair, SignJWT, type JWK } from "jose";
import Provider, { type Configuration } from "oidc-provider";

export type IdpAccount = {
  email?: string;
  email_verified?: boolean | string;
  name?: string;
  [claim: string]: unknown;
};

export type TestIdp = {
  /** The issuer (origin and `path`). */
  readonly issuer: string;
  readonly clientId: string;
  readonly clientSecret: string;
  /** Our server's variables for this provider under `name` (GOOGLE, AZURE, KEYCLOAK, APPLE). */
  env(name: string): Record<string, string>;
  /** Accounts by subject; a test adds its own. */
  readonly accounts: Map<string, IdpAccount>;
  /**
   * Signs `subject` in from the authorization URL (or declines, as a person pressing "Cancel"):
   * the URL the provider finally sends the browser to.
   */
  signIn(authorizeUrl: string, subject: string, opts?: { decline?: boolean }): Promise<string>;
  /** An ID token signed with the provider's key: its claims, over sensible defaults. */
  idToken(claims: Record<string, unknown>): Promise<string>;
  /** An ID token signed with another key the provider never published. */
  foreignIdToken(claims: Record<string, unknown>): Promise<string>;
  /**
   * The time the provider has spent answering requests so far, in ms (each request from its
   * arrival to the end of its answer): what a caller's wait owes to the provider.
   */
  busyMs(): number;
  close(): Promise<void>;
};

/**
 * A whole sign-in through a provider as a browser makes it: our authorization URL (GET /authorize,
 * or the provider's URL a link of identities gave) followed to the provider, `subject` signing in there, and our callback's answer:
 * its status and where it sends the browser.
 */
export async function providerRoundTrip(
  idp: TestIdp,
  authorizeUrl: string,
  subject: string,
  opts: { decline?: boolean } = {},
): Promise<{ status: number; location: string; returned: string }> {
  let atProvider = authorizeUrl;
  // GET /authorize, unless the client asked for the provider's URL itself (linkIdentity).
  if (new URL(authorizeUrl).origin !== new URL(idp.issuer).origin) {
    const start = await fetch(authorizeUrl, { redirect: "manual" });
    if (start.status !== 302) throw new Error(`/authorize answered ${start.status}`);
    atProvider = start.headers.get("location")!;
  }
  const returned = await idp.signIn(atProvider, subject, opts);
  const res = await fetch(returned, { redirect: "manual" });
  return { status: res.status, location: res.headers.get("location")!, returned };
}

export async function startIdp(
  opts: { path?: string; clientId?: string; clientSecret?: string } = {},
): Promise<TestIdp> {
  const clientId = opts.clientId ?? "revwise-test-client";
  const clientSecret = opts.clientSecret ?? "test-client-secret-0123456789";
  const path = opts.path ?? "";
  const accounts = new Map<string, IdpAccount>();
  const { privateKey } = await generateKeyPair("RS256", { extractable: true });
  const jwk: JWK = { ...(await exportJWK(privateKey)), kid: "test-key", alg: "RS256", use: "sig" };
  const foreign = await generateKeyPair("RS256");

  const server = http.createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const issuer = `${origin}${path}`;

  const configuration: Configuration = {
    clients: [
      {
        client_id: clientId,
        client_secret: clientSecret,
        redirect_uris: ["http://127.0.0.1/callback"],
        response_types: ["code"],
        grant_types: ["authorization_code", "refresh_token"],
        token_endpoint_auth_method: "client_secret_post",
      },
    ],
    jwks: { keys: [jwk] },
    cookies: { keys: ["test-cookie-key"] },
    claims: {
      openid: ["sub"],
      email: ["email", "email_verified"],
      // Google's hosted domain and Microsoft's "domain owner verified the address" ride along.
      profile: ["name", "picture", "preferred_username", "hd", "xms_edov"],
    },
    // The ID token carries the person's claims itself, as Google's and Microsoft's do.
    conformIdTokenClaims: false,
    features: { devInteractions: { enabled: false } },
    pkce: { required: () => false },
    interactions: { url: (_ctx, interaction) => `${path}/interaction/${interaction.uid}` },
    findAccount: (_ctx, sub) => {
      const account = accounts.get(sub);
      return account ? { accountId: sub, claims: () => ({ ...account, sub }) } : undefined;
    },
    // Consent is taken as given: the test's person always agrees to share what is asked.
    loadExistingGrant: async (ctx) => {
      const grant = new ctx.oidc.provider.Grant({
        clientId: ctx.oidc.client!.clientId,
        accountId: ctx.oidc.session!.accountId!,
      });
      grant.addOIDCScope("openid email profile");
      await grant.save();
      return grant;
    },
  };
  const provider = new Provider(issuer, configuration);
  // Our test servers listen on ports chosen at start: any loopback callback is registered.
  provider.Client.prototype.redirectUriAllowed = (uri: string) =>
    new URL(uri).hostname === "127.0.0.1";
  const oidc = provider.callback();

  let busy = 0;
  server.on("request", (req, res) => {
    const arrived = performance.now();
    res.on("finish", () => (busy += performance.now() - arrived));
    const url = new URL(req.url!, origin);
    // A browser asks for the provider's icon: it has none (and says so without an error).
    if (url.pathname === "/favicon.ico") return void res.writeHead(204).end();
    const interaction = url.pathname.match(/\/interaction\/([^/]+)$/);
    if (interaction) return void loginPage(req, res, interaction[1]!);
    if (path && url.pathname.startsWith(path)) req.url = req.url!.slice(path.length) || "/";
    oidc(req, res);
  });

  async function loginPage(req: http.IncomingMessage, res: http.ServerResponse, uid: string) {
    try {
      if (req.method === "GET") {
        await provider.interactionDetails(req, res);
        res.setHeader("content-type", "text/html; charset=utf-8");
        res.end(`<!doctype html><html lang="en"><head><title>Test identity provider</title></head>
<body><main><h1>Sign in to the test provider</h1>
<form method="post" action="${path}/interaction/${uid}">
<label for="login">Account</label> <input id="login" name="login" autocomplete="username">
<button type="submit">Sign in</button>
<button type="submit" name="decline" value="1">Cancel</button>
</form></main></body></html>`);
        return;
      }
      let body = "";
      for await (const chunk of req) body += String(chunk);
      const form = new URLSearchParams(body);
      const result = form.get("decline")
        ? { error: "access_denied", error_description: "The person declined to sign in" }
        : { login: { accountId: form.get("login") ?? "" } };
      await provider.interactionFinished(req, res, result, { mergeWithLastSubmission: false });
    } catch (err) {
      res.statusCode = 400;
      res.end(String(err));
    }
  }

  const sign =
    (key: CryptoKey | Parameters<SignJWT["sign"]>[0], kid: string) =>
    async (claims: Record<string, unknown>) => {
      const now = Math.floor(Date.now() / 1000);
      return new SignJWT({ iss: issuer, aud: clientId, iat: now, exp: now + 600, ...claims })
        .setProtectedHeader({ alg: "RS256", kid })
        .sign(key);
    };

  return {
    issuer,
    clientId,
    clientSecret,
    accounts,
    busyMs: () => busy,
    env: (name) => ({
      [`GOTRUE_EXTERNAL_${name}_ENABLED`]: "true",
      [`GOTRUE_EXTERNAL_${name}_CLIENT_ID`]: clientId,
      [`GOTRUE_EXTERNAL_${name}_SECRET`]: clientSecret,
      // Microsoft's URL names the tenant; its issuer is the tenant's `/v2.0`.
      [`GOTRUE_EXTERNAL_${name}_URL`]: issuer.replace(/\/v2\.0$/, ""),
    }),
    async signIn(authorizeUrl, subject, signInOpts = {}) {
      const jar = new Map<string, string>();
      let url = authorizeUrl;
      let form: string | undefined;
      for (let step = 0; step < 12; step++) {
        if (new URL(url).origin !== origin) return url;
        const res = await fetch(url, {
          method: form ? "POST" : "GET",
          body: form,
          redirect: "manual",
          headers: {
            cookie: [...jar].map(([k, v]) => `${k}=${v}`).join("; "),
            ...(form ? { "content-type": "application/x-www-form-urlencoded" } : {}),
          },
        });
        for (const cookie of res.headers.getSetCookie()) {
          const pair = cookie.split(";")[0]!;
          jar.set(pair.slice(0, pair.indexOf("=")), pair.slice(pair.indexOf("=") + 1));
        }
        const location = res.headers.get("location");
        if (res.status === 200 && /\/interaction\//.test(url) && !form) {
          form = new URLSearchParams(
            signInOpts.decline ? { decline: "1" } : { login: subject },
          ).toString();
          await res.arrayBuffer();
          continue;
        }
        if (!location) throw new Error(`the provider answered ${res.status}: ${await res.text()}`);
        await res.arrayBuffer();
        url = new URL(location, url).href;
        form = undefined;
      }
      throw new Error("the provider kept the browser");
    },
    idToken: sign(privateKey, "test-key"),
    foreignIdToken: sign(foreign.privateKey, "test-key"),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
