// POST /token?grant_type=password | refresh_token | pkce.
import type { FastifyInstance } from "fastify";
import type { AuthContext } from "../context.ts";
import { AuthError, emailLoginsDisabled, ErrorCode } from "../errors.ts";
import { factorsJson } from "../models/factors.ts";
import { exchangeAuthCode } from "../models/flow-states.ts";
import { alreadyUsed } from "../models/refresh-tokens.ts";
import { findSession, sessionResponse, signIn } from "../models/sessions.ts";
import { findUserByPhone } from "../models/user-phones.ts";
import { findUserByEmail, findUserById, identitiesOf, isBanned } from "../models/users.ts";
import { burnPasswordCheck, passwordWeakness, verifyPassword } from "../passwords.ts";
import { emailOrPhone, presentString, queryParam, readBody } from "../request.ts";

const invalidCredentials = () =>
  new AuthError(400, ErrorCode.invalid_credentials, "Invalid login credentials");
const banned = () => new AuthError(400, ErrorCode.user_banned, "User is banned");

export default async function token(app: FastifyInstance, { ctx }: { ctx: AuthContext }) {
  const { db, config } = app;

  app.post("/token", { onRequest: ctx.limits.hook("token") }, async (request) => {
    const body = readBody(request);
    switch (queryParam(request, "grant_type")) {
      case "password":
        return passwordGrant(body);
      case "refresh_token":
        return refreshGrant(body);
      case "pkce":
        return pkceGrant(body);
      case "id_token":
        throw new AuthError(
          400,
          ErrorCode.provider_disabled,
          "Sign-in with an ID token is not enabled",
        );
      case "web3":
        throw new AuthError(422, ErrorCode.web3_provider_disabled, "Web3 provider is disabled");
      default:
        throw new AuthError(400, ErrorCode.invalid_credentials, "unsupported_grant_type");
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
      // Every failure costs one password check and answers the same: no account is revealed.
      if (!user) {
        await burnPasswordCheck(password);
        throw invalidCredentials();
      }
      // The identities and factors are read while the password is checked on a worker thread.
      const [valid, identities, factors] = await Promise.all([
        verifyPassword(user.encrypted_password, password),
        identitiesOf(db, user.id),
        factorsJson(db, user.id),
      ]);
      if (!valid) throw invalidCredentials();
      if (email !== undefined && !user.email_confirmed_at && !config.mailerAutoconfirm)
        throw new AuthError(400, ErrorCode.email_not_confirmed, "Email not confirmed");
      if (phone !== undefined && !user.phone_confirmed_at)
        throw new AuthError(400, ErrorCode.phone_not_confirmed, "Phone not confirmed");
      if (isBanned(user)) throw banned();
      // A password the policy now refuses still signs in; the answer says why it is weak.
      const weakness = passwordWeakness(password, config.passwordMinLength);
      // signIn is one statement, atomic by itself: no transaction needed (it would cost two round trips).
      const session = await signIn(db, ctx, user, "password", request, { identities, factors });
      return weakness ? { ...session, weak_password: weakness } : session;
    }

    async function refreshGrant(body: Record<string, unknown>) {
      // Shorter than the shortest refresh token GoTrue ever issued (its old 12 characters).
      const presented = presentString(body.refresh_token) ?? "";
      if (presented.length < 12)
        throw new AuthError(400, ErrorCode.validation_failed, "Refresh token is not valid");
      const result = await db.transaction(async (tx) => {
        const rotation = await ctx.refreshTokens.rotate(tx, presented);
        if (rotation.kind === "reused") return undefined;
        const user = await findUserById(tx, rotation.userId);
        if (!user) throw new AuthError(400, ErrorCode.user_not_found, "User not found");
        if (isBanned(user)) throw banned();
        const session = await findSession(tx, rotation.sessionId);
        return sessionResponse(tx, ctx.tokens, user, session!, rotation.token);
      });
      if (!result) throw alreadyUsed();
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
        const { userId, method } = await exchangeAuthCode(tx, code, verifier);
        const user = await findUserById(tx, userId);
        if (!user)
          throw new AuthError(
            404,
            ErrorCode.flow_state_not_found,
            "invalid flow state, no valid flow state found",
          );
        if (isBanned(user)) throw banned();
        // The session's method is the flow's (recovery, magiclink, email/signup, …).
        return signIn(tx, ctx, user, method, request);
      });
    }
  });
}
