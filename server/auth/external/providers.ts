// The external identity providers: where each one's sign-in starts, how its answer becomes a
// person (subject, addresses and whether the provider verified them, the identity's data), as
// GoTrue's internal/api/provider reads each of them. OpenID Connect issuers (Google, Microsoft
// Entra, Keycloak or any OpenID provider at a realm URL) are found by discovery and their ID tokens
// verified by openid-client (issuer, audience, expiry, nonce, the keys of the issuer's JWKS); GitHub
// and GitLab are OAuth 2.0 sites whose user API says who signed in. Every provider is sent a PKCE
// challenge (RFC 7636), and every OpenID one a nonce, both kept in the flow state.
import * as client from "openid-client";
import type { ExternalProviderConfig } from "../../config.ts";
import type { ExternalProviderName } from "../../config/variables.ts";
import { isLoopbackHost } from "../../platform/addresses.ts";

/** One address a provider gives, as GoTrue's provider.Email. */
export type ProviderEmail = { email: string; verified: boolean; primary: boolean };

/** Who signed in at the provider: GoTrue's UserProvidedData. */
export type ProviderUser = {
  /** The provider's id of the person (the identity's provider_id). */
  subject: string;
  emails: ProviderEmail[];
  /** GoTrue's provider.Claims: the identity's data and the user's metadata. */
  claims: Record<string, unknown>;
};

/** What the callback hands on: the person, and the provider's own tokens for the client. */
export type ProviderAnswer = { user: ProviderUser; accessToken: string; refreshToken?: string };

/** What an authorization request carries that its answer is checked against. */
export type FlowSecrets = { state: string; nonce: string; codeVerifier: string };

type OpenIdKind = {
  kind: "openid";
  /** The issuer whose discovery document names the endpoints and keys. */
  issuer: (url: string | undefined) => string;
  scopes: string[];
  /** The person as this provider's ID token says (GoTrue's parse…IDToken). */
  fromClaims: (claims: Record<string, unknown>) => ProviderUser;
};

type OAuthKind = {
  kind: "oauth";
  endpoints: (url: string | undefined) => {
    issuer: string;
    authorization: string;
    token: string;
    api: string;
  };
  scopes: string[];
  /** The person as this provider's user API says, read with its access token. */
  userData: (api: ApiReader) => Promise<ProviderUser>;
};

/** Reads a JSON document of the provider's user API with the person's access token. */
type ApiReader = (path: string) => Promise<unknown>;

const text = (v: unknown) => (typeof v === "string" ? v : "");
const truthy = (v: unknown) => v === true || v === "true" || v === "1";

/** The claims of an OpenID provider's ID token as GoTrue's generic parser keeps them. */
export function genericClaims(claims: Record<string, unknown>): ProviderUser {
  const email = text(claims.email);
  const verified = truthy(claims.email_verified);
  const name = text(claims.name);
  const picture = text(claims.picture);
  return {
    subject: text(claims.sub),
    emails: email ? [{ email, verified, primary: true }] : [],
    claims: compact({
      iss: text(claims.iss),
      sub: text(claims.sub),
      name,
      picture,
      email,
      email_verified: verified,
      preferred_username: text(claims.preferred_username),
      avatar_url: picture,
      full_name: name,
      provider_id: text(claims.sub),
    }),
  };
}

/** Drops the empty fields, as GoTrue's Claims are written (`omitempty`). */
function compact(claims: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(claims).filter(([, v]) => v !== "" && v !== undefined && v !== null),
  );
}

/**
 * Microsoft's ID token: its `email` counts as verified unless the token says its domain's owner
 * did not verify it (`xms_edov` false), as GoTrue's AzureIDTokenClaims.IsEmailVerified reads it.
 */
function azureClaims(claims: Record<string, unknown>): ProviderUser {
  const user = genericClaims({ ...claims, email_verified: false });
  const email = text(claims.email);
  const edov = claims.xms_edov;
  const verified = email !== "" && (edov === undefined || truthy(edov));
  return { ...user, emails: email ? [{ email, verified, primary: true }] : [] };
}

/** Google's ID token: `email_verified` (or the older `verified_email`). */
function googleClaims(claims: Record<string, unknown>): ProviderUser {
  const verified = truthy(claims.email_verified) || truthy(claims.verified_email);
  const user = genericClaims({ ...claims, email_verified: verified });
  const hd = text(claims.hd);
  return hd ? { ...user, claims: { ...user.claims, custom_claims: { hd } } } : user;
}

/** Apple's ID token: its address is always one Apple verified (GoTrue's parseAppleIDToken). */
function appleClaims(claims: Record<string, unknown>): ProviderUser {
  return genericClaims({ ...claims, email_verified: true, name: undefined, picture: undefined });
}

/** How each provider's ID token names the person (the id_token grant reads these too). */
export const ID_TOKEN_CLAIMS: Partial<
  Record<ExternalProviderName, (claims: Record<string, unknown>) => ProviderUser>
> = { apple: appleClaims, azure: azureClaims, google: googleClaims, keycloak: genericClaims };

type JsonRecord = Record<string, unknown>;
const record = (v: unknown): JsonRecord =>
  v !== null && typeof v === "object" && !Array.isArray(v) ? (v as JsonRecord) : {};
const records = (v: unknown): JsonRecord[] => (Array.isArray(v) ? v.map(record) : []);

/** A person of an OAuth 2.0 site's user API, as GoTrue's Claims name them. */
function siteUser(u: JsonRecord, emails: ProviderEmail[], extra: JsonRecord): ProviderUser {
  const id = String(u.id ?? "");
  return {
    subject: id,
    emails,
    claims: compact({
      sub: id,
      name: text(u.name),
      avatar_url: text(u.avatar_url),
      full_name: text(u.name),
      provider_id: id,
      ...extra,
    }),
  };
}

/** GitHub's user and its addresses (GoTrue's githubProvider.GetUserData). */
async function githubUser(api: ApiReader): Promise<ProviderUser> {
  const u = record(await api("/user"));
  const emails = records(await api("/user/emails"))
    .filter((e) => text(e.email))
    .map((e) => ({
      email: text(e.email),
      verified: e.verified === true,
      primary: e.primary === true,
    }));
  return siteUser(u, emails, { preferred_username: text(u.login), user_name: text(u.login) });
}

/**
 * GitLab's user: its main address is verified once GitLab confirmed it (`confirmed_at`); its other
 * addresses never count as verified (GoTrue's gitlabProvider.GetUserData).
 */
async function gitlabUser(api: ApiReader): Promise<ProviderUser> {
  const u = record(await api("/user"));
  const emails: ProviderEmail[] = records(await api("/user/emails"))
    .filter((e) => text(e.email))
    .map((e) => ({ email: text(e.email), verified: false, primary: false }));
  if (text(u.email))
    emails.push({ email: text(u.email), verified: text(u.confirmed_at) !== "", primary: true });
  return siteUser(u, emails, { picture: text(u.avatar_url) });
}

const OPENID_SCOPES = ["openid", "email", "profile"];

/** Each provider the server can sign people in with by redirect. */
const KINDS: Partial<Record<ExternalProviderName, OpenIdKind | OAuthKind>> = {
  google: {
    kind: "openid",
    issuer: (url) => url ?? "https://accounts.google.com",
    scopes: OPENID_SCOPES,
    fromClaims: googleClaims,
  },
  azure: {
    kind: "openid",
    // The tenant's (or `common`'s) v2.0 issuer; openid-client accepts each tenant's tokens.
    issuer: (url) => `${url ?? "https://login.microsoftonline.com/common"}/v2.0`,
    scopes: OPENID_SCOPES,
    fromClaims: azureClaims,
  },
  keycloak: {
    kind: "openid",
    issuer: (url) => url!,
    scopes: OPENID_SCOPES,
    fromClaims: genericClaims,
  },
  github: {
    kind: "oauth",
    endpoints: (url) => ({
      issuer: url ?? "https://github.com",
      authorization: `${url ?? "https://github.com"}/login/oauth/authorize`,
      token: `${url ?? "https://github.com"}/login/oauth/access_token`,
      // GitHub Enterprise serves its API under /api/v3 of its own host.
      api: url ? `${url}/api/v3` : "https://api.github.com",
    }),
    scopes: ["user:email"],
    userData: githubUser,
  },
  gitlab: {
    kind: "oauth",
    endpoints: (url) => ({
      issuer: url ?? "https://gitlab.com",
      authorization: `${url ?? "https://gitlab.com"}/oauth/authorize`,
      token: `${url ?? "https://gitlab.com"}/oauth/token`,
      api: `${url ?? "https://gitlab.com"}/api/v4`,
    }),
    scopes: ["read_user"],
    userData: gitlabUser,
  },
};

/** The person the provider's answer names could not be read: GoTrue's 500 for it. */
export class ProviderError extends Error {
  override name = "ProviderError";
}

/** An enabled provider that signs people in by redirect. */
export class RedirectProvider {
  readonly name: ExternalProviderName;
  private readonly config: ExternalProviderConfig;
  private readonly kind: OpenIdKind | OAuthKind;
  private client: Promise<client.Configuration> | undefined;

  constructor(
    name: ExternalProviderName,
    config: ExternalProviderConfig,
    kind: OpenIdKind | OAuthKind,
  ) {
    this.name = name;
    this.config = config;
    this.kind = kind;
  }

  get openId(): boolean {
    return this.kind.kind === "openid";
  }

  /**
   * The provider's client: its discovery document read once (again after a failure), or its
   * OAuth 2.0 endpoints. Plain http is allowed to a provider on this machine only (tests, a local
   * Keycloak).
   */
  private configuration(): Promise<client.Configuration> {
    this.client ??= this.connect().catch((err: unknown) => {
      this.client = undefined;
      throw err;
    });
    return this.client;
  }

  private async connect(): Promise<client.Configuration> {
    const { clientIds, secret, url } = this.config;
    const auth = client.ClientSecretPost(secret);
    if (this.kind.kind === "openid") {
      const issuer = new URL(this.kind.issuer(url));
      return client.discovery(issuer, clientIds[0]!, undefined, auth, {
        execute: insecureAllowed(issuer) ? [client.allowInsecureRequests] : [],
      });
    }
    const e = this.kind.endpoints(url);
    const config = new client.Configuration(
      { issuer: e.issuer, authorization_endpoint: e.authorization, token_endpoint: e.token },
      clientIds[0]!,
      undefined,
      auth,
    );
    if (insecureAllowed(new URL(e.token))) client.allowInsecureRequests(config);
    return config;
  }

  /** Where the browser goes to sign in: the provider's authorization endpoint with our request. */
  async authorizationUrl(
    secrets: FlowSecrets,
    extraScopes: string,
    extra: Record<string, string>,
  ): Promise<string> {
    const config = await this.configuration();
    const scopes = [
      ...this.kind.scopes,
      ...extraScopes
        .split(/[ ,]/)
        .map((s) => s.trim())
        .filter(Boolean),
    ];
    const params: Record<string, string> = {
      ...extra,
      redirect_uri: this.config.redirectUri,
      response_type: "code",
      scope: [...new Set(scopes)].join(" "),
      state: secrets.state,
      code_challenge: await client.calculatePKCECodeChallenge(secrets.codeVerifier),
      code_challenge_method: "S256",
    };
    if (this.kind.kind === "openid") params.nonce = secrets.nonce;
    return client.buildAuthorizationUrl(config, params).href;
  }

  /**
   * The provider's answer at our callback (its query or form): the code exchanged with the
   * verifier, the ID token verified (issuer, audience, expiry, signature, and the nonce unless the
   * provider skips it), the person read. Throws openid-client's errors for a refused exchange or
   * token, ProviderError for a person that cannot be read.
   */
  async answer(params: URLSearchParams, secrets: FlowSecrets): Promise<ProviderAnswer> {
    const config = await this.configuration();
    const current = new URL(this.config.redirectUri);
    current.search = params.toString();
    const openId = this.kind.kind === "openid";
    const tokens = await client.authorizationCodeGrant(config, current, {
      expectedState: secrets.state,
      pkceCodeVerifier: secrets.codeVerifier,
      ...(openId && !this.config.skipNonceCheck
        ? { expectedNonce: secrets.nonce }
        : { idTokenExpected: openId }),
    });
    let user: ProviderUser;
    if (this.kind.kind === "openid") {
      const claims = tokens.claims();
      if (!claims) throw new ProviderError("the provider sent no ID token");
      user = this.kind.fromClaims(claims as Record<string, unknown>);
    } else {
      const api = this.kind.endpoints(this.config.url).api;
      user = await this.kind.userData(async (path) => {
        const res = await client.fetchProtectedResource(
          config,
          tokens.access_token,
          new URL(api + path),
          "GET",
          undefined,
          new Headers({ accept: "application/json" }),
        );
        if (!res.ok) throw new ProviderError(`the provider's ${path} answered ${res.status}`);
        return res.json();
      });
    }
    if (!user.subject) throw new ProviderError("the provider named nobody");
    return { user, accessToken: tokens.access_token, refreshToken: tokens.refresh_token };
  }
}

/** An http:// provider URL is allowed only on this machine. */
export const insecureAllowed = (url: URL) =>
  url.protocol === "http:" && isLoopbackHost(url.hostname);

/** The enabled providers that sign people in by redirect, by name. */
export function redirectProviders(
  external: Partial<Record<ExternalProviderName, ExternalProviderConfig>>,
): Map<string, RedirectProvider> {
  const providers = new Map<string, RedirectProvider>();
  for (const [name, config] of Object.entries(external) as [
    ExternalProviderName,
    ExternalProviderConfig,
  ][]) {
    const kind = KINDS[name];
    if (kind) providers.set(name, new RedirectProvider(name, config, kind));
  }
  return providers;
}
