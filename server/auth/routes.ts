// The /auth/v1 scope: Supabase Auth (GoTrue) wire protocol.
import type { FastifyInstance } from "fastify";
import { authContext } from "./context.ts";
import { API_VERSION, authErrorHandler, authNotFound } from "./errors.ts";
import admin from "./handlers/admin.ts";
import adminLinks from "./handlers/admin-links.ts";
import audit from "./handlers/audit.ts";
import external from "./handlers/external.ts";
import factors from "./handlers/factors.ts";
import health from "./handlers/health.ts";
import identities from "./handlers/identities.ts";
import jwks from "./handlers/jwks.ts";
import reauthenticate from "./handlers/reauthenticate.ts";
import recoveryCodes from "./handlers/recovery-codes.ts";
import logout from "./handlers/logout.ts";
import oauthAuthorize from "./handlers/oauth-authorize.ts";
import oauthClients from "./handlers/oauth-clients.ts";
import oauthGrants from "./handlers/oauth-grants.ts";
import oauthToken from "./handlers/oauth-token.ts";
import openidConfiguration from "./handlers/openid-configuration.ts";
import otp from "./handlers/otp.ts";
import passkeys from "./handlers/passkeys.ts";
import recover from "./handlers/recover.ts";
import resend from "./handlers/resend.ts";
import settings from "./handlers/settings.ts";
import signup from "./handlers/signup.ts";
import sso from "./handlers/sso.ts";
import ssoAdmin from "./handlers/sso-admin.ts";
import token from "./handlers/token.ts";
import user from "./handlers/user.ts";
import verify from "./handlers/verify.ts";
import { refuseHeadOnGet } from "../http/head-without-handler.ts";
import { noStoreUnlessSet } from "../http/no-store.ts";

export default async function authRoutes(app: FastifyInstance) {
  app.setErrorHandler(authErrorHandler);
  app.setNotFoundHandler(authNotFound);
  // Every answer says which API version it speaks (auth-js reads error codes from it).
  app.addHook("onSend", (_request, reply, payload, done) => {
    reply.header("x-supabase-api-version", API_VERSION);
    done(null, payload);
  });
  noStoreUnlessSet(app);
  // A link scanner's HEAD on /verify must not use the link (nor on /reauthenticate send a code).
  refuseHeadOnGet(app);
  app.all("/*", authNotFound);
  const ctx = await authContext(app);
  for (const routes of [
    health,
    jwks,
    signup,
    token,
    otp,
    verify,
    logout,
    user,
    identities,
    factors,
    passkeys,
    recoveryCodes,
    reauthenticate,
    recover,
    resend,
    settings,
    external,
    sso,
    admin,
    ssoAdmin,
    adminLinks,
    audit,
    openidConfiguration,
    oauthClients,
    oauthAuthorize,
    oauthToken,
    oauthGrants,
  ])
    await app.register(routes, { ctx });
}
