// The id_token grant's provider and token, as GoTrue's token_oidc.go judges them: which provider a
// request names (by name, or by issuer; Apple's and Azure's issuer read from the token, unverified,
// then checked), whether it is on here, then the token verified with jose against the keys the
// issuer publishes (found by discovery): signature, issuer (Apple's from the token), expiry, then
// the audience among the provider's client ids and the nonce's SHA-256, each refused in GoTrue's
// words; a token shown with its access token that carries `at_hash` must match it.
import crypto from "node:crypto";
import { createRemoteJWKSet, jwtVerify, type JWTPayload } from "jose";
import * as client from "openid-client";
import type { Config } from "../../config.ts";
import type { ExternalProviderName } from "../../config/variables.ts";
import { AuthError, ErrorCode, goQuoted, OAuthError } from "../errors.ts";
import { genericClaims, ID_TOKEN_CLAIMS, insecureAllowed, type ProviderUser } from "./providers.ts";

/** The issuers of ID-token providers GoTrue knows by name (internal/api/provider). */
const APPLE_ISSUERS = ["https://appleid.apple.com", "https://account.apple.com"];
const GOOGLE_ISSUER = "https://accounts.google.com";
const AZURE_ISSUER = /^https:\/\/login[.]microsoftonline[.]com\/([^/]+)\/v2[.]0\/?$/;
/** After Azure in GoTrue's order: a provider's name, or its issuer in `issuer`. */
const LATER_PROVIDERS: [name: string, issuer: string][] = [
  ["facebook", "https://www.facebook.com"],
  ["keycloak", ""],
  ["kakao", "https://kauth.kakao.com"],
  ["vercel_marketplace", "https://marketplace.vercel.com"],
  ["snapchat", "https://accounts.snapchat.com/accounts/oauth2/token"],
];

export type IdTokenRequest = {
  idToken: string;
  provider: string;
  issuer: string;
  /** The client the token was issued to, for an allowed issuer named without a provider. */
  clientId: string;
  nonce: string;
  /** The access token given with the ID token, or "" (then `at_hash` is not checked). */
  accessToken: string;
};

/** The provider an ID token is judged by: its issuer and accepted audiences. */
export type IdTokenProvider = {
  /** The identity's provider: a provider's name, or an allowed issuer's URL. */
  name: string;
  /** The person the token's claims name. */
  claims: (claims: Record<string, unknown>) => ProviderUser;
  issuer: string;
  clientIds: string[];
  skipNonceCheck: boolean;
  /** Apple's issuer was read from the token (and checked to be Apple's): not checked again. */
  issuerFromToken: boolean;
};

const invalid = (message: string) => new AuthError(400, ErrorCode.validation_failed, message);
const disabled = (issuer: string) =>
  new AuthError(
    400,
    ErrorCode.provider_disabled,
    `Provider (issuer ${goQuoted(issuer)}) is not enabled`,
  );

/**
 * GoTrue's getProvider, in its order: Apple, Google, Azure by name or issuer, then the later
 * providers (Keycloak's issuer is its configured URL), `custom:` ones (none exist), and any other
 * issuer (none allowed). A provider `_URL` names an issuer of its own (a tenant, a realm; a test's
 * provider standing in for Google or Apple) that is accepted beside the public ones.
 */
export function idTokenProvider(config: Config, req: IdTokenRequest): IdTokenProvider {
  const { provider, issuer } = req;
  const on = (name: ExternalProviderName, found: string, issuerFromToken = false) => {
    const cfg = config.external[name];
    if (!cfg) throw disabled(found);
    return {
      name,
      claims: ID_TOKEN_CLAIMS[name]!,
      issuer: found,
      clientIds: cfg.clientIds,
      skipNonceCheck: cfg.skipNonceCheck,
      issuerFromToken,
    };
  };
  const fromToken = (name: string, isIssuer: (detected: string) => boolean) => {
    const detected = unverifiedIssuer(req.idToken);
    if (detected === undefined)
      throw invalid(`Unable to detect issuer in ID token for ${name} provider`);
    if (!isIssuer(detected))
      throw invalid(`Detected ID token issuer is not an ${name} ID token issuer`);
    if (issuer && issuer !== detected)
      throw invalid("Provided issuer does not match ID token issuer");
    return detected;
  };
  const own = (name: ExternalProviderName) => config.external[name]?.url;
  const appleIssuers = [...APPLE_ISSUERS, ...(own("apple") ? [own("apple")!] : [])];
  if (provider === "apple" || appleIssuers.includes(issuer))
    return on(
      "apple",
      fromToken("Apple", (d) => appleIssuers.includes(d)),
      true,
    );
  const googleIssuer = own("google") ?? GOOGLE_ISSUER;
  if (provider === "google" || issuer === googleIssuer) return on("google", googleIssuer);
  const azureTenant = own("azure") && `${own("azure")}/v2.0`;
  if (provider === "azure" || AZURE_ISSUER.test(issuer) || (azureTenant && issuer === azureTenant))
    return on(
      "azure",
      fromToken(
        "Azure",
        (d) =>
          d.startsWith("https://login.microsoftonline.com/") ||
          d.startsWith("https://sts.windows.net/") ||
          d === azureTenant,
      ),
    );
  const keycloakIssuer = own("keycloak") ?? "";
  for (const [name, named] of LATER_PROVIDERS) {
    if (name === "keycloak") {
      if (provider === name || (keycloakIssuer && issuer === keycloakIssuer))
        return on("keycloak", keycloakIssuer);
    } else if (provider === name || issuer === named) throw disabled(named);
  }
  if (provider.startsWith("custom:"))
    throw invalid(`Custom provider ${goQuoted(provider)} not found`);
  // GoTrue's deprecated fallback: an issuer of GOTRUE_EXTERNAL_ALLOWED_ID_TOKEN_ISSUERS, named with
  // the client the token is for, is its own provider (its claims read as any OpenID provider's).
  if (issuer && config.allowedIdTokenIssuers.includes(issuer))
    return {
      name: issuer,
      claims: genericClaims,
      issuer,
      clientIds: [req.clientId],
      skipNonceCheck: false,
      issuerFromToken: false,
    };
  throw invalid(`Custom OIDC provider ${goQuoted(provider)} not allowed`);
}

/** Each issuer's published keys, found by discovery once (again after a failure). */
const issuerKeys = new Map<string, Promise<ReturnType<typeof createRemoteJWKSet>>>();

function keysOf(issuer: string) {
  let keys = issuerKeys.get(issuer);
  if (!keys) {
    const url = new URL(issuer);
    keys = client
      .discovery(url, "id-token-grant", undefined, client.None(), {
        execute: insecureAllowed(url) ? [client.allowInsecureRequests] : [],
      })
      .then((config) => createRemoteJWKSet(new URL(config.serverMetadata().jwks_uri!)));
    keys.catch(() => issuerKeys.delete(issuer));
    issuerKeys.set(issuer, keys);
  }
  return keys;
}

/** The person a verified ID token names; GoTrue's refusals (OAuth errors) for a bad one. */
export async function verifyIdToken(
  provider: IdTokenProvider,
  req: IdTokenRequest,
): Promise<ProviderUser> {
  let payload: JWTPayload;
  try {
    const keys = await keysOf(provider.issuer);
    const verified = await jwtVerify(req.idToken, keys, {
      ...(provider.issuerFromToken ? {} : { issuer: provider.issuer }),
      requiredClaims: ["exp"],
    });
    payload = verified.payload;
    if (req.accessToken && typeof payload.at_hash === "string")
      checkAccessTokenHash(payload.at_hash, verified.protectedHeader.alg, req.accessToken);
  } catch {
    throw new OAuthError("invalid request", "Bad ID token");
  }
  const user = provider.claims(payload as Record<string, unknown>);
  if (!payload.sub) throw new OAuthError("invalid request", "Missing sub claim in id_token");
  const audience = typeof payload.aud === "string" ? [payload.aud] : (payload.aud ?? []);
  if (!provider.clientIds.some((id) => audience.includes(id)))
    throw new OAuthError(
      "invalid request",
      `Unacceptable audience in id_token: [${audience.join(" ")}]`,
    );
  if (!provider.skipNonceCheck) {
    const tokenNonce = typeof payload.nonce === "string" ? payload.nonce : "";
    if (Boolean(tokenNonce) !== Boolean(req.nonce))
      throw new OAuthError(
        "invalid request",
        "Passed nonce and nonce in id_token should either both exist or not.",
      );
    // The token carries the nonce's SHA-256 in hex; the client keeps the nonce itself.
    if (tokenNonce && crypto.createHash("sha256").update(req.nonce).digest("hex") !== tokenNonce)
      throw new OAuthError("invalid nonce", "Nonces mismatch");
  }
  return user;
}

/** The hash of each signing algorithm's family (OpenID Connect Core 3.1.3.6; go-oidc's table). */
const AT_HASH_DIGESTS: Record<string, string> = {
  RS256: "sha256",
  ES256: "sha256",
  PS256: "sha256",
  RS384: "sha384",
  ES384: "sha384",
  PS384: "sha384",
  RS512: "sha512",
  ES512: "sha512",
  PS512: "sha512",
  EdDSA: "sha512",
};

/**
 * GoTrue's check of `at_hash` (go-oidc's VerifyAccessToken): the left half of the access token's
 * hash, base64url, by the hash of the token's algorithm; an algorithm it has no hash for fails.
 */
function checkAccessTokenHash(atHash: string, alg: string | undefined, accessToken: string) {
  const digest = alg ? AT_HASH_DIGESTS[alg] : undefined;
  if (!digest) throw new Error(`no access token hash for ${alg}`);
  const hash = crypto.createHash(digest).update(accessToken, "ascii").digest();
  if (hash.subarray(0, hash.length / 2).toString("base64url") !== atHash)
    throw new Error("access token hash does not match");
}

/**
 * The `iss` of a JWT's payload, unverified, as GoTrue's DetectAppleIDTokenIssuer reads it: three
 * parts, the second unpadded base64url (line breaks skipped) of JSON that Go decodes into
 * `{iss string}` (null is empty, a field name matches in any case, a non-text `iss` is an error);
 * undefined when it cannot be read.
 */
function unverifiedIssuer(idToken: string): string | undefined {
  const parts = idToken.split(".");
  if (parts.length !== 3) return undefined;
  const payload = parts[1]!.replace(/[\r\n]/g, "");
  if (!/^[A-Za-z0-9_-]*$/.test(payload) || payload.length % 4 === 1) return undefined;
  let claims: unknown;
  try {
    claims = JSON.parse(Buffer.from(payload, "base64url").toString("utf8"));
  } catch {
    return undefined;
  }
  if (claims === null) return "";
  if (typeof claims !== "object" || Array.isArray(claims)) return undefined;
  let found = "";
  for (const [key, value] of Object.entries(claims)) {
    // Go's case folding of "iss": the long s (U+017F) folds to s as well.
    if (key.replaceAll("\u017f", "s").toLowerCase() !== "iss" || value === null) continue;
    if (typeof value !== "string") return undefined;
    found = value;
  }
  return found;
}
