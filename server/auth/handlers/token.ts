// POST /token?grant_type=password | refresh_token | pkce, and GoTrue's refusals of id_token and web3
// (no external or web3 provider is configured here).
import type { FastifyInstance, FastifyRequest } from "fastify";
import { authenticate } from "../authenticate.ts";
import { NIL_UUID, recordAudit } from "../../audit/audit-log.ts";
import { auditUser, userActor } from "../audit.ts";
import type { AuthContext } from "../context.ts";
import { AuthError, emailLoginsDisabled, ErrorCode, goQuoted, OAuthError } from "../errors.ts";
import { factorsJson } from "../models/factors.ts";
import { exchangeAuthCode } from "../models/flow-states.ts";
import { alreadyUsed, tokenNotFound } from "../models/refresh-tokens.ts";
import { findSession, sessionResponse, signIn } from "../models/sessions.ts";
import { findUserByPhone } from "../models/user-phones.ts";
import { findUserByEmail, findUserById, identitiesOf, isBanned } from "../models/users.ts";
import type { AuthBucket } from "../rate-limits.ts";
import { burnPasswordCheck, passwordWeakness, verifyPassword } from "../passwords.ts";
import { emailOrPhone, presentString, queryParam, readBody, readFlag } from "../request.ts";
import { countOutcome, signIns } from "../../metrics/metrics.ts";

/** The rate-limit bucket of each grant GoTrue knows (api/token.go Token); others take none. */
const GRANT_BUCKETS = new Map<string, AuthBucket>([
  ["password", "token"],
  ["refresh_token", "token"],
  ["id_token", "token"],
  ["pkce", "token"],
  ["web3", "web3"],
]);

const invalidCredentials = () =>
  new AuthError(400, ErrorCode.invalid_credentials, "Invalid login credentials");
const banned = () => new AuthError(400, ErrorCode.user_banned, "User is banned");

export default async function token(app: FastifyInstance, { ctx }: { ctx: AuthContext }) {
  const { db, config } = app;

  // GoTrue limits a grant once it knows it (api/token.go Token): web3 by its own bucket, the
  // others by the token bucket, an unknown grant not at all (its refusal costs nothing).
  const limit = async (request: FastifyRequest) => {
    const grant = (request.query as Record<string, unknown>).grant_type;
    const bucket = typeof grant === "string" ? GRANT_BUCKETS.get(grant) : undefined;
    if (bucket) await ctx.limits.take(bucket, request);
  };

  app.post("/token", { onRequest: limit }, async (request) => {
    const grant = queryParam(request, "grant_type");
    // Counted by grant (one of GoTrue's, else "other": a client cannot add label values).
    const method = grant !== undefined && GRANT_BUCKETS.has(grant) ? grant : "other";
    return countOutcome(signIns, { method }, answer());

    // Each grant reads the body itself: GoTrue refuses web3 (off) and an unknown grant unread.
    async function answer() {
      switch (grant) {
        case "password":
          return passwordGrant(readBody(request));
        case "refresh_token":
          return refreshGrant(readBody(request));
        case "pkce":
          return pkceGrant(readBody(request));
        case "id_token":
          return idTokenGrant(readBody(request));
        case "web3":
          throw new AuthError(422, ErrorCode.web3_provider_disabled, "Web3 provider is disabled");
        default:
          throw new AuthError(400, ErrorCode.invalid_credentials, "unsupported_grant_type");
      }
    }

    async function passwordGrant(body: Record<string, unknown>) {
      // GoTrue reads the body into typed fields before it checks any of them.
      const password = presentString(body.password) ?? "";
      const { email, phone } = emailOrPhone(
        body,
        "Only an email address or phone number should be provided on login.",
      );
      if (email !== undefined && !config.emailEnabled) throw emailLoginsDisabled(422);
      if (phone !== undefined && !config.phoneEnabled)
        throw new AuthError(422, ErrorCode.phone_provider_disabled, "Phone logins are disabled");
      if (email === undefined && phone === undefined)
        throw new AuthError(400, ErrorCode.validation_failed, "missing email or phone");
      const user =
        email !== undefined
          ? await findUserByEmail(db, email.trim().toLowerCase())
          : await findUserByPhone(db, phone!.replace(/^\+/, "").replaceAll(" ", ""));
      const provider = email !== undefined ? "email" : "phone";
      /** A refused sign-in is logged (by the address or number tried when it has no account). */
      const refused = async (error: AuthError) => {
        const actor = user
          ? userActor(user)
          : { id: NIL_UUID, username: email !== undefined ? email.trim().toLowerCase() : phone! };
        await recordAudit(db, request, actor, "login_failed", { provider, error_code: error.code });
        return error;
      };
      // Every failure costs one password check and answers the same: no account is revealed.
      if (!user) {
        await burnPasswordCheck(password);
        throw await refused(invalidCredentials());
      }
      // The identities and factors are read while the password is checked on a worker thread.
      const [valid, identities, factors] = await Promise.all([
        verifyPassword(user.encrypted_password, password),
        identitiesOf(db, user.id),
        factorsJson(db, user.id),
      ]);
      if (!valid) throw await refused(invalidCredentials());
      // MAILER_AUTOCONFIRM confirms sign-ups as they are made; it never lets an unconfirmed
      // address in (one the admin API made without email_confirm, or from before it was set).
      if (email !== undefined && !user.email_confirmed_at)
        throw await refused(
          new AuthError(400, ErrorCode.email_not_confirmed, "Email not confirmed"),
        );
      if (phone !== undefined && !user.phone_confirmed_at)
        throw await refused(
          new AuthError(400, ErrorCode.phone_not_confirmed, "Phone not confirmed"),
        );
      if (isBanned(user)) throw await refused(banned());
      // A password the policy now refuses still signs in; the answer says why it is weak.
      const weakness = passwordWeakness(password, config.passwordMinLength);
      // signIn is one statement, atomic by itself: no transaction needed (it would cost two round trips).
      const session = await signIn(db, ctx, user, "password", request, { identities, factors });
      return weakness ? { ...session, weak_password: weakness } : session;
    }

    async function refreshGrant(body: Record<string, unknown>) {
      const presented = presentString(body.refresh_token) ?? "";
      // Found first, as GoTrue finds it outside its transaction; then its user, judged before the
      // session and before rotation or reuse detection: a banned user's refresh changes nothing.
      const found = await ctx.refreshTokens.find(db, presented);
      const user = await findUserById(db, found.userId);
      // Its tokens go with a user: one deleted meanwhile is GoTrue's token not found.
      if (!user) throw tokenNotFound();
      if (isBanned(user))
        throw new AuthError(400, ErrorCode.user_banned, "Invalid Refresh Token: User Banned");
      const result = await db.transaction(async (tx) => {
        const rotation = await ctx.refreshTokens.rotate(tx, found);
        if (rotation.kind === "reused") {
          // An old token came back and ended its session: logged with the session it ended.
          await auditUser(tx, request, user, "token_revoked", {
            reason: "refresh_token_reused",
            session_id: found.sessionId,
          });
          return undefined;
        }
        const session = await findSession(tx, rotation.sessionId);
        return sessionResponse(tx, ctx.tokens, user, session!, rotation.token);
      });
      if (!result) throw alreadyUsed();
      return result;
    }

    /**
     * GoTrue's IdTokenGrant up to its provider's configuration (token_oidc.go): no external
     * provider is configured here, so every request ends in one of its refusals, in its order.
     */
    async function idTokenGrant(body: Record<string, unknown>): Promise<never> {
      // Read as GoTrue reads IdTokenGrantParams: text fields and one flag, each of its type.
      const idToken = presentString(body.id_token) ?? "";
      const provider = presentString(body.provider) ?? "";
      const clientId = presentString(body.client_id) ?? "";
      const issuer = presentString(body.issuer) ?? "";
      presentString(body.access_token);
      presentString(body.nonce);
      const linkIdentity = readFlag(body.link_identity, "link_identity");
      if (!idToken) throw new OAuthError("invalid request", "id_token required");
      if (!provider && (!clientId || !issuer))
        throw new OAuthError("invalid request", "provider or client_id and issuer required");
      if (linkIdentity) {
        if (!request.headers.authorization)
          throw new OAuthError(
            "invalid request",
            "Linking requires a valid user access token in Authorization",
          );
        await authenticate(db, ctx.tokens, request);
      }
      throw idTokenProviderRefusal(provider, issuer, idToken);
    }

    async function pkceGrant(body: Record<string, unknown>) {
      const code = presentString(body.auth_code) ?? "";
      const verifier = presentString(body.code_verifier) ?? "";
      if (!code || !verifier)
        throw new AuthError(
          400,
          ErrorCode.validation_failed,
          "invalid request: both auth code and code verifier should be non-empty",
        );
      return db.transaction(async (tx) => {
        const { userId, method, providerTokens } = await exchangeAuthCode(tx, code, verifier);
        const user = await findUserById(tx, userId);
        if (!user)
          throw new AuthError(
            404,
            ErrorCode.flow_state_not_found,
            "invalid flow state, no valid flow state found",
          );
        if (isBanned(user)) throw banned();
        // The session's method is the flow's (recovery, magiclink, email/signup, oauth, …); an
        // external provider's flow hands on the provider's own tokens too.
        const session = await signIn(tx, ctx, user, method, request);
        const { access, refresh } = providerTokens;
        return {
          ...session,
          ...(access ? { provider_token: ctx.providerTokens.open(access) } : {}),
          ...(refresh ? { provider_refresh_token: ctx.providerTokens.open(refresh) } : {}),
        };
      });
    }
  });
}

/** The issuers of ID-token providers GoTrue knows by name (internal/api/provider). */
const APPLE_ISSUERS = ["https://appleid.apple.com", "https://account.apple.com"];
const GOOGLE_ISSUER = "https://accounts.google.com";
const AZURE_ISSUER = /^https:\/\/login[.]microsoftonline[.]com\/([^/]+)\/v2[.]0\/?$/;
/** After Azure in GoTrue's order: a provider's name, or its issuer in `issuer`. */
const LATER_PROVIDERS: [name: string, issuer: string][] = [
  ["facebook", "https://www.facebook.com"],
  // Keycloak's issuer is its configured URL: none here, and no issuer names it.
  ["keycloak", ""],
  ["kakao", "https://kauth.kakao.com"],
  ["vercel_marketplace", "https://marketplace.vercel.com"],
  ["snapchat", "https://accounts.snapchat.com/accounts/oauth2/token"],
];

/**
 * GoTrue's getProvider (token_oidc.go) with no provider enabled, in its order: a provider it knows
 * by name or issuer is 400 provider_disabled naming its issuer (Apple's and Azure's read from the
 * token, unverified, and checked first); a `custom:` one is not found (custom providers are on by
 * default and none exists); any other is not allowed (its default allowed issuers, Apple's and
 * Google's, are matched by name before).
 */
function idTokenProviderRefusal(provider: string, issuer: string, idToken: string): AuthError {
  const invalid = (message: string) => new AuthError(400, ErrorCode.validation_failed, message);
  const disabled = (named: string) =>
    new AuthError(
      400,
      ErrorCode.provider_disabled,
      `Provider (issuer ${goQuoted(named)}) is not enabled`,
    );
  const fromToken = (name: string, isIssuer: (detected: string) => boolean) => {
    const detected = unverifiedIssuer(idToken);
    if (detected === undefined)
      return invalid(`Unable to detect issuer in ID token for ${name} provider`);
    if (!isIssuer(detected))
      return invalid(`Detected ID token issuer is not an ${name} ID token issuer`);
    if (issuer && issuer !== detected)
      return invalid("Provided issuer does not match ID token issuer");
    return disabled(detected);
  };
  if (provider === "apple" || APPLE_ISSUERS.includes(issuer))
    return fromToken("Apple", (detected) => APPLE_ISSUERS.includes(detected));
  if (provider === "google" || issuer === GOOGLE_ISSUER) return disabled(GOOGLE_ISSUER);
  if (provider === "azure" || AZURE_ISSUER.test(issuer))
    return fromToken(
      "Azure",
      (detected) =>
        detected.startsWith("https://login.microsoftonline.com/") ||
        detected.startsWith("https://sts.windows.net/"),
    );
  for (const [name, named] of LATER_PROVIDERS)
    if (provider === name || (named !== "" && issuer === named)) return disabled(named);
  if (provider.startsWith("custom:"))
    return invalid(`Custom provider ${goQuoted(provider)} not found`);
  return invalid(`Custom OIDC provider ${goQuoted(provider)} not allowed`);
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
