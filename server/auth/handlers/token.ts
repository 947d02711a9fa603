// POST /token?grant_type=password | refresh_token | pkce | id_token (an external provider's ID
// token: Google, Microsoft, Apple, Keycloak), and GoTrue's refusal of web3 (no web3 provider here).
import type { FastifyInstance, FastifyRequest } from "fastify";
import { authenticate } from "../authenticate.ts";
import { NIL_UUID, recordAudit } from "../../audit/audit-log.ts";
import { userActor } from "../audit.ts";
import type { AuthContext } from "../context.ts";
import { AuthError, emailLoginsDisabled, ErrorCode, OAuthError } from "../errors.ts";
import { idTokenProvider, verifyIdToken } from "../external/id-tokens.ts";
import { accountOf, linkToUser, personOf } from "../external/sign-in.ts";
import { exchangeAuthCode } from "../models/flow-states.ts";
import { newSignIn, sessionResponse, signIn } from "../models/sessions.ts";
import { refreshSession } from "../refresh-grant.ts";
import { findUserByPhone } from "../models/user-phones.ts";
import { findUserByEmail, findUserById, isBanned } from "../models/users.ts";
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
      // The session and its tokens are made here while the thread pool checks the password:
      // nothing of them is stored or sent unless the check passes and the account may sign in.
      // The answer's identities and factors come with the statement that stores it (signIn).
      const checked = verifyPassword(user.encrypted_password, password);
      const made = newSignIn(ctx, user, "password", request);
      if (!(await checked)) throw await refused(invalidCredentials());
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
      const session = await signIn(db, ctx, user, "password", request, made);
      return weakness ? { ...session, weak_password: weakness } : session;
    }

    async function refreshGrant(body: Record<string, unknown>) {
      const presented = presentString(body.refresh_token) ?? "";
      const { user, session, refreshToken } = await refreshSession(
        db,
        ctx,
        request,
        presented,
        null,
      );
      return sessionResponse(db, ctx.tokens, user, session, refreshToken);
    }

    /**
     * GoTrue's IdTokenGrant (token_oidc.go): the request read, the signed-in user when it links,
     * the provider and the token judged (external/id-tokens.ts), then the account found or made
     * (or the identity linked) as a provider's callback does, and a session.
     */
    async function idTokenGrant(body: Record<string, unknown>) {
      // Read as GoTrue reads IdTokenGrantParams: text fields and one flag, each of its type.
      const idToken = presentString(body.id_token) ?? "";
      const provider = presentString(body.provider) ?? "";
      const clientId = presentString(body.client_id) ?? "";
      const issuer = presentString(body.issuer) ?? "";
      const accessToken = presentString(body.access_token) ?? "";
      const nonce = presentString(body.nonce) ?? "";
      const linkIdentity = readFlag(body.link_identity, "link_identity");
      if (!idToken) throw new OAuthError("invalid request", "id_token required");
      if (!provider && (!clientId || !issuer))
        throw new OAuthError("invalid request", "provider or client_id and issuer required");
      let target: string | undefined;
      if (linkIdentity) {
        if (!request.headers.authorization)
          throw new OAuthError(
            "invalid request",
            "Linking requires a valid user access token in Authorization",
          );
        target = (await authenticate(db, ctx.tokens, request)).user.id;
      }
      const req = { idToken, provider, issuer, clientId, nonce, accessToken };
      const judged = idTokenProvider(config, req);
      const person = personOf(judged.name, await verifyIdToken(judged, req));
      const result = await db.transaction(async (tx) => {
        const user = target
          ? await linkToUser(ctx, tx, request, target, person)
          : await accountOf(ctx, tx, request, person, config.siteUrl);
        if ("error" in user) return user;
        return signIn(tx, ctx, user, "oauth", request);
      });
      app.mailer.flush();
      if ("error" in result) throw result.error;
      return result;
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
