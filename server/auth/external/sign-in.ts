// Sign-in with an external provider, as GoTrue's external.go runs it: GET /authorize (and, for a
// signed-in user, GET /user/identities/authorize) sends the browser to the provider with a flow
// state as `state`; the provider's callback claims it once, has the provider's answer verified,
// finds or makes the account by GoTrue's rules, and sends the browser on to `redirect_to` with a
// session (implicit flow) or a one-time code (PKCE), or with the error where GoTrue puts it.
import type { FastifyReply, FastifyRequest } from "fastify";
import * as client from "openid-client";
import type { Queryable } from "../../db/database.ts";
import { auditUser } from "../audit.ts";
import type { AuthContext } from "../context.ts";
import { spendEmailBudget } from "../emails/email-limits.ts";
import { sendConfirmationEmail } from "../emails/link-emails.ts";
import { notifyOwner } from "../emails/security-notices.ts";
import { AuthError, ErrorCode, OAuthError } from "../errors.ts";
import {
  addExternalIdentity,
  createExternalUser,
  decideAccount,
  emailTaken,
  findIdentity,
  mergeUserMetadata,
  refreshIdentityData,
  type ExternalPerson,
} from "../models/external-identities.ts";
import { addressUnproven, neverProven, voidWhatCameBeforeProof } from "../models/first-proof.ts";
import {
  claimExternalFlowState,
  createExternalFlowState,
  deleteFlowState,
  issueExternalAuthCode,
  parsePkce,
  type ExternalFlowState,
} from "../models/flow-states.ts";
import { signIn } from "../models/sessions.ts";
import {
  applyEmailChange,
  findUserById,
  isBanned,
  markEmailConfirmed,
  type UserRow,
} from "../models/users.ts";
import { redirectFor, redirectWith } from "../redirects.ts";
import { queryParam } from "../request.ts";
import type { ProviderUser } from "./providers.ts";
import { KNOWN_PROVIDERS } from "./known-providers.ts";

/** GoTrue's names of the OAuth error of each status (errors.go oauthErrorMap). */
export const OAUTH_ERRORS: Record<number, string> = {
  400: "invalid_request",
  401: "unauthorized_client",
  403: "access_denied",
  500: "server_error",
  503: "temporarily_unavailable",
};

/** Parameters of the authorization request that are ours to set, never the client's. */
const RESERVED = new Set([
  "client_id",
  "client_secret",
  "redirect_uri",
  "response_type",
  "state",
  "scope",
  "code_challenge",
  "code_challenge_method",
  "code_verifier",
  "provider",
  "scopes",
  "redirect_to",
  "skip_http_redirect",
  "nonce",
]);

/**
 * The provider's authorization URL for this request, its flow state stored: GoTrue's
 * GetExternalProviderRedirectURL, its checks in its order (the provider, the PKCE parameters).
 * `linkingTarget`: a signed-in user linking another identity to their account.
 */
export async function authorizationUrl(
  ctx: AuthContext,
  request: FastifyRequest,
  linkingTarget?: UserRow,
): Promise<string> {
  const { db, config } = ctx.app;
  const name = (queryParam(request, "provider") ?? "").toLowerCase();
  const provider = ctx.providers.get(name);
  if (!provider) {
    const reason = KNOWN_PROVIDERS.has(name)
      ? "provider is not enabled"
      : `Provider ${name} could not be found`;
    throw new AuthError(400, ErrorCode.validation_failed, `Unsupported provider: ${reason}`);
  }
  const referrer = redirectFor(request, config);
  const pkce = parsePkce({
    code_challenge: queryParam(request, "code_challenge"),
    code_challenge_method: queryParam(request, "code_challenge_method"),
  });
  const secrets = {
    nonce: client.randomNonce(),
    codeVerifier: client.randomPKCECodeVerifier(),
  };
  const state = await createExternalFlowState(db, {
    provider: name,
    pkce,
    ...secrets,
    referrer,
    linkingTargetId: linkingTarget?.id,
  });
  // Other parameters pass on to the provider (GoTrue's: `login_hint`, `prompt`, `hd`, …).
  const extra: Record<string, string> = {};
  for (const [key, value] of Object.entries(request.query as Record<string, unknown>))
    if (typeof value === "string" && !RESERVED.has(key.toLowerCase())) extra[key] = value;
  try {
    return await provider.authorizationUrl(
      { state, ...secrets },
      queryParam(request, "scopes") ?? "",
      extra,
    );
  } catch (err) {
    request.log.error({ err, provider: name }, "the provider's discovery failed");
    throw new AuthError(500, ErrorCode.unexpected_failure, "Error getting provider configuration");
  }
}

/** A sign-in's outcome past the provider: where the browser goes. */
type Outcome = { url: string } | { error: AuthError; referrer: string };

/**
 * GET and POST /callback: the provider's answer. A state that cannot be claimed sends the browser
 * to SITE_URL with the error in the query (303, GoTrue's loadFlowState); any later error to the
 * flow's `redirect_to` with the error in the query and the fragment (302, redirectErrors).
 */
export async function providerCallback(
  ctx: AuthContext,
  request: FastifyRequest,
  reply: FastifyReply,
) {
  const { db, config } = ctx.app;
  const params = callbackParams(request);
  let flow: ExternalFlowState;
  try {
    const state = params.get("state") ?? "";
    if (!state)
      throw new AuthError(400, ErrorCode.bad_oauth_callback, "OAuth state parameter missing");
    flow = await claimExternalFlowState(db, state);
  } catch (err) {
    if (!(err instanceof AuthError)) throw err;
    return reply.redirect(siteErrorUrl(config.siteUrl, err), 303);
  }
  const outcome = await finishSignIn(ctx, request, params, flow).catch((err: unknown): Outcome => {
    if (err instanceof AuthError) return { error: err, referrer: flow.referrer };
    throw err;
  });
  if ("url" in outcome) return reply.redirect(outcome.url, 302);
  const error = errorParams(outcome.error);
  // GoTrue's redirectErrors: in the query (added to the page's own) and in the fragment.
  return reply.redirect(
    redirectWith(outcome.referrer, { query: error, fragment: { ...error, sb: "" } }),
    302,
  );
}

/** The callback's parameters: the query, or the form a provider posts (`response_mode=form_post`). */
function callbackParams(request: FastifyRequest): URLSearchParams {
  const source =
    request.method === "POST" && request.body && typeof request.body === "object"
      ? request.body
      : request.query;
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(source as Record<string, unknown>))
    if (typeof value === "string") params.set(key, value);
  return params;
}

/**
 * SITE_URL with the error in its query: where a refusal goes before the flow's own `redirect_to`
 * is known. SITE_URL as it is written (an origin, no "/" added), as Go writes the URL it parsed.
 */
export function siteErrorUrl(siteUrl: string, err: AuthError): string {
  const query = new URLSearchParams(errorParams(err));
  query.sort();
  return `${siteUrl}?${query.toString()}`;
}

/** An error as GoTrue's getErrorQueryString writes it. */
function errorParams(err: AuthError): Record<string, string> {
  if (err instanceof OAuthError) return { error: err.error, error_description: err.message };
  const accessDenied =
    err.code === ErrorCode.signup_disabled ||
    err.code === ErrorCode.user_banned ||
    err.code === ErrorCode.provider_email_needs_verification;
  return {
    error: accessDenied ? "access_denied" : (OAUTH_ERRORS[err.status] ?? "server_error"),
    error_code: err.code,
    error_description: err.message,
  };
}

async function finishSignIn(
  ctx: AuthContext,
  request: FastifyRequest,
  params: URLSearchParams,
  flow: ExternalFlowState,
): Promise<Outcome> {
  const { db } = ctx.app;
  const providerError = params.get("error");
  if (providerError) throw new OAuthError(providerError, params.get("error_description") ?? "");
  const code = params.get("code") ?? "";
  if (!code)
    throw new AuthError(
      400,
      ErrorCode.bad_oauth_callback,
      "OAuth callback with missing authorization code missing",
    );
  const provider = ctx.providers.get(flow.provider_type);
  if (!provider)
    throw new AuthError(
      400,
      ErrorCode.oauth_provider_not_supported,
      "Unsupported provider: provider is not enabled",
    );
  const answer = await provider
    .answer(params, {
      state: flow.id,
      nonce: flow.provider_nonce,
      codeVerifier: flow.provider_code_verifier,
    })
    .catch((err: unknown) => {
      request.log.info({ err, provider: flow.provider_type }, "the provider's answer was refused");
      // The token endpoint's refusal (a code from another flow, spent or expired) is GoTrue's
      // exchange error; a token that fails its checks, its profile error.
      if (err instanceof client.ResponseBodyError)
        throw new AuthError(
          500,
          ErrorCode.unexpected_failure,
          `Unable to exchange external code: ${code.slice(0, 4)}`,
        );
      throw new AuthError(
        500,
        ErrorCode.unexpected_failure,
        "Error getting user profile from external provider",
      );
    });
  const person = personOf(flow.provider_type, answer.user);
  if (!person.email && answer.user.emails.length === 0)
    throw new AuthError(
      500,
      ErrorCode.unexpected_failure,
      "Error getting user email from external provider",
    );
  const result = await db.transaction(async (tx) => {
    const user = flow.linking_target_id
      ? await linkToUser(ctx, tx, request, flow.linking_target_id, person)
      : await accountOf(ctx, tx, request, person, flow.referrer);
    if ("error" in user) return user;
    return { url: await signedInUrl(ctx, tx, request, flow, user, "oauth", answer) };
  });
  ctx.app.mailer.flush();
  if ("error" in result) throw result.error;
  return result;
}

/**
 * Where the browser goes once the provider's person has an account: the flow's `redirect_to`
 * with a one-time code for the client's verifier (PKCE flow; the provider's tokens, sealed, wait
 * beside it), or with the session, and the provider's tokens if any, in the fragment (implicit).
 */
export async function signedInUrl(
  ctx: AuthContext,
  tx: Queryable,
  request: FastifyRequest,
  flow: { id: string; code_challenge: string | null; referrer: string },
  user: UserRow,
  method: string,
  providerTokens?: { accessToken: string; refreshToken?: string | undefined },
): Promise<string> {
  const box = ctx.providerTokens;
  if (flow.code_challenge !== null) {
    const authCode = await issueExternalAuthCode(tx, flow.id, user.id, {
      accessToken: providerTokens ? box.seal(providerTokens.accessToken) : null,
      refreshToken: providerTokens?.refreshToken ? box.seal(providerTokens.refreshToken) : null,
    });
    return redirectWith(flow.referrer, { query: { code: authCode } });
  }
  const session = await signIn(tx, ctx, user, method, request);
  await deleteFlowState(tx, flow.id);
  return redirectWith(flow.referrer, {
    fragment: {
      access_token: session.access_token,
      expires_at: String(session.expires_at),
      expires_in: String(session.expires_in),
      ...(providerTokens ? { provider_token: providerTokens.accessToken } : {}),
      ...(providerTokens?.refreshToken
        ? { provider_refresh_token: providerTokens.refreshToken }
        : {}),
      refresh_token: session.refresh_token,
      token_type: "bearer",
    },
  });
}

/**
 * The provider's person as the account keeps them: the account's address is the primary one, lower
 * case, verified only when the provider says so; the identity shows the primary (else the last
 * listed) address.
 */
export function personOf(provider: string, user: ProviderUser): ExternalPerson {
  const primary = user.emails.find((e) => e.primary);
  const shown = primary ?? user.emails.at(-1);
  return {
    provider,
    subject: user.subject,
    email: primary?.email.toLowerCase() ?? "",
    verified: primary?.verified ?? false,
    verifiedEmails: user.emails.filter((e) => e.verified).map((e) => e.email.toLowerCase()),
    data: {
      ...user.claims,
      email: shown?.email.toLowerCase() ?? "",
      email_verified: shown?.verified ?? false,
    },
  };
}

/** A refusal that keeps what the sign-in wrote (GoTrue's NewCommitWithError). */
type Committed = { error: AuthError };

/**
 * GoTrue's createAccountFromExternalIdentity: the account the identity belongs to, else the one
 * holding an address the provider verified, else a new one. An account's first proof by the
 * provider (an address never confirmed, or only taken as given) voids what was set on it before:
 * the password, the sessions, and, for an account never confirmed, its factors (decision 0041).
 */
export async function accountOf(
  ctx: AuthContext,
  tx: Queryable,
  request: FastifyRequest,
  person: ExternalPerson,
  referrer: string,
): Promise<UserRow | Committed> {
  const { config } = ctx.app;
  const decision = await decideAccount(tx, person);
  let user: UserRow;
  let created = false;
  switch (decision.kind) {
    case "existing":
      await refreshIdentityData(tx, decision.identity, person.data);
      user = await mergeUserMetadata(tx, decision.user.id, person.data);
      break;
    case "link": {
      // Confirmed as given (MAILER_AUTOCONFIRM), now proven by the provider: its first proof,
      // before the identity joins (what was linked to it before goes).
      if (decision.user.email_confirmed_at && addressUnproven(decision.user)) {
        await voidWhatCameBeforeProof(tx, decision.user.id, false, false);
        await markEmailConfirmed(tx, decision.user.id);
      }
      const identity = await addExternalIdentity(tx, decision.user.id, person);
      user = await mergeUserMetadata(tx, decision.user.id, person.data);
      await auditUser(tx, request, user, "identity_linked", {
        identity_id: identity.id,
        provider: person.provider,
        provider_id: person.subject,
      });
      break;
    }
    case "create":
      if (config.signupDisabled)
        throw new AuthError(
          422,
          ErrorCode.signup_disabled,
          "Signups not allowed for this instance",
        );
      user = await createExternalUser(tx, person, decision.email);
      created = true;
      break;
  }
  if (isBanned(user)) throw new AuthError(403, ErrorCode.user_banned, "User is banned");
  const provenNow =
    person.verified && !!user.email && person.verifiedEmails.includes(user.email.toLowerCase());
  if (!user.email_confirmed_at) {
    if (!created) await voidWhatCameBeforeProof(tx, user.id, false, neverProven(user));
    // An address the provider did not verify is never confirmed by it, MAILER_AUTOCONFIRM or not:
    // the provider said it does not know whose it is.
    if (provenNow) {
      if (created)
        await auditUser(tx, request, user, "user_signedup", { provider: person.provider });
      user = await markEmailConfirmed(tx, user.id);
    } else {
      if (user.email) {
        await sendProviderConfirmation(
          ctx,
          tx,
          request,
          { id: user.id, email: user.email },
          referrer,
        );
        return needsVerification(
          `Unverified email with ${person.provider}. A confirmation email has been sent to your ${person.provider} email`,
        );
      }
      return needsVerification(
        `Unverified email with ${person.provider}. Verify the email with ${person.provider} in order to sign in`,
      );
    }
  }
  return user;
}

/** The confirmation email of an address a provider gave but did not verify. */
async function sendProviderConfirmation(
  ctx: AuthContext,
  tx: Queryable,
  request: FastifyRequest,
  user: { id: string; email: string },
  redirectTo: string,
) {
  await spendEmailBudget(request, "auth-confirmation", { email: user.email });
  const link = { pkce: undefined, siteUrl: ctx.app.config.siteUrl, redirectTo };
  await sendConfirmationEmail(tx, ctx.app.mailer, user, link);
}

const needsVerification = (message: string): Committed => ({
  error: new AuthError(422, ErrorCode.provider_email_needs_verification, message),
});

/**
 * GoTrue's linkIdentityToUser: a signed-in user's link of another identity. An identity already
 * linked (to them or anyone) is refused; an account without an address takes the provider's when
 * the provider verified it and no other account holds it (GoTrue would take an unverified one and
 * send it a confirmation; here it stays the identity's only).
 */
export async function linkToUser(
  ctx: AuthContext,
  tx: Queryable,
  request: FastifyRequest,
  targetId: string,
  person: ExternalPerson,
): Promise<UserRow> {
  const { config, mailer } = ctx.app;
  let user = await findUserById(tx, targetId, true);
  if (!user) throw new AuthError(422, ErrorCode.user_not_found, "Linking target user not found");
  const existing = await findIdentity(tx, person.provider, person.subject);
  if (existing)
    throw new AuthError(
      422,
      ErrorCode.identity_already_exists,
      existing.user_id === user.id
        ? "Identity is already linked"
        : "Identity is already linked to another user",
    );
  const identity = await addExternalIdentity(tx, user.id, person);
  await auditUser(tx, request, user, "identity_linked", {
    identity_id: identity.id,
    provider: person.provider,
    provider_id: person.subject,
  });
  // An account without an address (a phone's, a guest's) takes the provider's, when verified.
  if (!user.email && person.verified && !(await emailTaken(tx, person.email)))
    user = await applyEmailChange(tx, user.id, person.email, true);
  if (user.email)
    await notifyOwner(
      tx,
      mailer,
      user,
      { kind: "identity_linked", provider: person.provider },
      config.siteUrl,
    );
  return user;
}
