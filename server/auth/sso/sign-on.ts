// SAML 2.0 single sign-on as GoTrue's sso.go and samlacs.go run it. POST /sso finds the company's
// provider (by id or email domain), stores a flow state holding the request it sends (its id is
// the RelayState) and answers with the provider's URL carrying a signed request. The provider
// posts its answer to /sso/saml/acs: the flow state is claimed once, node-saml checks the
// signature (of the response or of the assertion), the audience, the validity window and that it
// answers our request; the assertion must be addressed to our ACS and to that request; then the
// person's account is found or made (provider `sso:<id>`, by GoTrue's linking rules) and the
// browser sent on with a session (implicit flow) or a code (PKCE), as after any external provider.
import crypto from "node:crypto";
import type { FastifyReply, FastifyRequest } from "fastify";
import type { CacheProvider } from "@node-saml/node-saml";
import type { AuthContext } from "../context.ts";
import { AuthError, ErrorCode } from "../errors.ts";
import { accountOf, signedInUrl, siteErrorUrl } from "../external/sign-in.ts";
import {
  claimSsoFlowState,
  createSsoFlowState,
  parsePkce,
  type Pkce,
} from "../models/flow-states.ts";
import {
  findSsoProvider,
  findSsoProviderByDomain,
  isEnabled,
  refreshSsoMetadata,
  type SsoProviderRow,
} from "../models/sso-providers.ts";
import { allowedRedirect, redirectFor, redirectWith } from "../redirects.ts";
import { presentString, readBody, readFlag, unreadable } from "../request.ts";
import { isUuid } from "../../platform/uuid.ts";
import {
  claimsOf,
  emailOf,
  readAssertion,
  responseDestination,
  userIdOf,
  type Assertion,
} from "./assertion.ts";
import { parseIdpMetadata, type IdpMetadata } from "./idp-metadata.ts";
import { fetchSamlMetadata, isMetadataStale } from "./metadata-url.ts";
import { PERSISTENT_NAME_ID, type ServiceProvider } from "./service-provider.ts";

/** crewjam/saml's (GoTrue's) clock skew, and how long after its issue an assertion is taken. */
const CLOCK_SKEW_MS = 180_000;
const MAX_ISSUE_DELAY_MS = 90_000;

const disabled = () =>
  new AuthError(404, ErrorCode.sso_provider_disabled, "SSO Provider is currently disabled");

/**
 * node-saml with the provider's metadata and our key: requests signed (SHA-256), responses
 * checked against the provider's signing certificates, our entity id as the audience, and the
 * request id (`inResponseTo`) the only one it may answer.
 */
async function samlFor(
  sp: ServiceProvider,
  metadata: IdpMetadata,
  provider: SsoProviderRow,
  cache: CacheProvider,
  requestTtlSeconds: number,
) {
  // Loaded with SAML on only (service-provider.ts loaded it first).
  const { SAML, ValidateInResponseTo } = await import("@node-saml/node-saml");
  return new SAML({
    entryPoint: metadata.ssoUrl,
    issuer: sp.entityId,
    audience: sp.entityId,
    callbackUrl: sp.acsUrl,
    idpCert: metadata.signingCerts,
    idpIssuer: metadata.entityId,
    privateKey: sp.privateKeyPem,
    signatureAlgorithm: "sha256",
    digestAlgorithm: "sha256",
    identifierFormat: provider.name_id_format ?? PERSISTENT_NAME_ID,
    disableRequestedAuthnContext: true,
    // GoTrue's rule: the response or the assertion in it signed, either will do.
    wantAuthnResponseSigned: false,
    wantAssertionsSigned: false,
    acceptedClockSkewMs: CLOCK_SKEW_MS,
    maxAssertionAgeMs: MAX_ISSUE_DELAY_MS,
    validateInResponseTo: ValidateInResponseTo.always,
    requestIdExpirationPeriodMs: requestTtlSeconds * 1000,
    cacheProvider: cache,
  });
}

/** The service provider, or GoTrue's answer when SAML is off. */
export function samlOn(ctx: AuthContext): ServiceProvider {
  if (!ctx.sso) throw new AuthError(404, ErrorCode.saml_provider_disabled, "SAML 2.0 is disabled");
  return ctx.sso;
}

/** POST /sso: GoTrue's SingleSignOn, its checks in its order. */
export async function startSignOn(ctx: AuthContext, request: FastifyRequest, reply: FastifyReply) {
  samlOn(ctx);
  const { config } = ctx.app;
  const body = readBody(request);
  const providerId = body.provider_id;
  if (providerId !== undefined && providerId !== null && !isUuid(providerId))
    throw unreadable("provider_id must be a UUID");
  const domain = presentString(body.domain);
  if (providerId && domain)
    throw new AuthError(
      400,
      ErrorCode.validation_failed,
      "Only one of provider_id or domain supported",
    );
  if (!providerId && !domain)
    throw new AuthError(
      400,
      ErrorCode.validation_failed,
      "A provider_id or domain needs to be provided",
    );
  const url = await signOnUrl(ctx, {
    providerId: providerId ?? undefined,
    domain,
    pkce: parsePkce(body),
    referrer: allowedRedirect(body.redirect_to, config) ?? config.siteUrl,
  });
  if (readFlag(body.skip_http_redirect, "skip_http_redirect")) return reply.code(200).send({ url });
  return reply.redirect(url, 303);
}

/**
 * POST /sso/email, the sign-in page's "Sign in with SSO" form (beyond GoTrue's API, for a page
 * without its script): a work email's domain names the provider, the browser goes there, and
 * comes back to the page it came from (its `redirect_to`, else its Referer: /auth?next=…). A
 * refusal goes back to that page with the error in the query and the fragment, as a provider's.
 */
export async function startSignOnByEmail(
  ctx: AuthContext,
  request: FastifyRequest,
  reply: FastifyReply,
) {
  samlOn(ctx);
  const { config } = ctx.app;
  const body = readBody(request);
  const referrer = redirectFor(request, config, body.redirect_to);
  try {
    const email = presentString(body.email) ?? "";
    const domain = email.slice(email.lastIndexOf("@") + 1).trim();
    if (!email.includes("@") || !domain)
      throw new AuthError(400, ErrorCode.validation_failed, "Enter your work email address");
    const url = await signOnUrl(ctx, { domain, pkce: undefined, referrer });
    return reply.type("text/html; charset=utf-8").send(continuePage(url));
  } catch (err) {
    if (!(err instanceof AuthError)) throw err;
    const error = { error_code: err.code, error_description: err.message };
    return reply.redirect(redirectWith(referrer, { query: error, fragment: error }), 303);
  }
}

/**
 * The page that sends the browser on to the provider. The site's pages allow forms to post only to
 * the site (`form-action 'self'`), which Chromium holds a form's redirect to as well; a page of the
 * site's own that moves on by itself (a refresh, no script) is not a form's redirect.
 */
function continuePage(url: string): string {
  const href = url.replace(/&/g, "&amp;").replace(/"/g, "&quot;").replace(/</g, "&lt;");
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta http-equiv="refresh" content="0;url=${href}"><title>Signing in with your company</title></head><body><p><a href="${href}">Continue to your company's sign-in</a></p></body></html>`;
}

/**
 * The provider's URL with our signed request, its flow state stored: the provider found (by id or
 * domain) and on, the request made by node-saml, its id kept for the answer.
 */
async function signOnUrl(
  ctx: AuthContext,
  start: { providerId?: string; domain?: string; pkce: Pkce | undefined; referrer: string },
): Promise<string> {
  const sp = samlOn(ctx);
  const { db, config } = ctx.app;
  const provider = start.providerId
    ? await findSsoProvider(db, start.providerId.toLowerCase())
    : await findSsoProviderByDomain(db, (start.domain ?? "").toLowerCase());
  if (!provider)
    throw new AuthError(
      404,
      ErrorCode.sso_provider_not_found,
      start.providerId ? "No such SSO provider" : "No SSO provider assigned for this domain",
    );
  if (!isEnabled(provider)) throw disabled();
  const metadata = parseIdpMetadata(provider.metadata_xml);
  let requestId = "";
  const capture: CacheProvider = {
    saveAsync: async (key, value) => {
      requestId = key;
      return { value, createdAt: Date.now() };
    },
    getAsync: async () => null,
    removeAsync: async () => null,
  };
  const relayState = crypto.randomUUID();
  const saml = await samlFor(sp, metadata, provider, capture, config.saml!.relayStateSeconds);
  const url = await saml.getAuthorizeUrlAsync(relayState, undefined, {});
  await createSsoFlowState(db, {
    id: relayState,
    ssoProviderId: provider.id,
    requestId,
    pkce: start.pkce,
    referrer: start.referrer,
  });
  return url;
}

/**
 * POST /sso/saml/acs: GoTrue's SamlAcs. Every refusal sends the browser to SITE_URL with the
 * error in the query (303), as GoTrue does.
 */
export async function assertionConsumer(
  ctx: AuthContext,
  request: FastifyRequest,
  reply: FastifyReply,
) {
  const sp = samlOn(ctx);
  try {
    const url = await consume(ctx, sp, request);
    ctx.app.mailer.flush();
    return reply.redirect(url, 302);
  } catch (err) {
    if (!(err instanceof AuthError)) throw err;
    request.log.info({ code: err.code }, "a SAML response was refused");
    return reply.redirect(siteErrorUrl(ctx.app.config.siteUrl, err), 303);
  }
}

/** GoTrue's refusal of a response that fails a check (why is logged, never shown). */
function notValid(request: FastifyRequest, reason: unknown) {
  request.log.info({ reason: String(reason) }, "a SAML response failed its checks");
  return new AuthError(400, ErrorCode.validation_failed, "SAML Assertion is not valid");
}

async function consume(ctx: AuthContext, sp: ServiceProvider, request: FastifyRequest) {
  const { db, config } = ctx.app;
  const form = (request.body ?? {}) as Record<string, unknown>;
  const relayState = typeof form.RelayState === "string" ? form.RelayState : "";
  const samlResponse = typeof form.SAMLResponse === "string" ? form.SAMLResponse : "";
  // GoTrue's bound of the RelayState: a UUID (a flow state of ours) or a URL (or nothing) for a
  // provider's own start, which is refused here: there is no request of ours it answers.
  if (!isUuid(relayState)) {
    if (relayState === "" || /^https?:\/\//i.test(relayState))
      throw notValid(request, "unsolicited response");
    throw new AuthError(
      400,
      ErrorCode.validation_failed,
      "SAML RelayState is not a valid UUID or URL",
    );
  }
  const flow = await claimSsoFlowState(db, relayState, config.saml!.relayStateSeconds);
  const provider = await findSsoProvider(db, flow.sso_provider_id);
  if (!provider)
    throw new AuthError(500, ErrorCode.unexpected_failure, "Unable to find SSO Provider");
  if (!isEnabled(provider))
    throw new AuthError(
      404,
      ErrorCode.sso_provider_disabled,
      "SSO Provider assigned for this domain is currently disabled",
    );
  if (!samlResponse)
    throw new AuthError(400, ErrorCode.validation_failed, "SAMLResponse is missing");
  const metadata = await currentMetadata(ctx, request, provider);
  // The one request this flow sent, for node-saml's InResponseTo checks.
  const requests: CacheProvider = {
    saveAsync: async () => null,
    getAsync: async (key) =>
      key === flow.saml_request_id ? new Date(Date.now()).toISOString() : null,
    removeAsync: async () => null,
  };
  const saml = await samlFor(sp, metadata, provider, requests, config.saml!.relayStateSeconds);
  let assertion: Assertion;
  try {
    const { profile } = await saml.validatePostResponseAsync({ SAMLResponse: samlResponse });
    const signed = profile?.getAssertionXml?.();
    if (!signed) throw new Error("no assertion");
    assertion = readAssertion(signed);
    checkResponse(samlResponse, sp);
  } catch (err) {
    throw notValid(request, err);
  }
  // The signed assertion itself names our ACS and our request (a bearer confirmation that is
  // not ours would let an assertion made for another service, or another request, sign in).
  if (
    !assertion.confirmations.some(
      (c) => c.recipient === sp.acsUrl && c.inResponseTo === flow.saml_request_id,
    )
  )
    throw notValid(request, "the assertion's Recipient or InResponseTo is not ours");
  const subject = userIdOf(assertion);
  if (!subject)
    throw new AuthError(
      400,
      ErrorCode.saml_assertion_no_user_id,
      "SAML Assertion did not contain a persistent Subject Identifier attribute or Subject NameID uniquely identifying this user",
    );
  const claims = claimsOf(assertion, provider.attribute_mapping);
  const mapped = typeof claims.email === "string" ? claims.email : "";
  const email = (mapped || emailOf(assertion)).trim();
  if (!email)
    throw new AuthError(
      400,
      ErrorCode.saml_assertion_no_email,
      "SAML Assertion does not contain an email address",
    );
  const providerName = `sso:${provider.id}`;
  const lower = email.toLowerCase();
  const person = {
    provider: providerName,
    subject,
    email: lower,
    verified: true,
    verifiedEmails: [lower],
    data: {
      ...claims,
      iss: provider.entity_id,
      sub: subject,
      email: lower,
      email_verified: true,
    },
  };
  const referrer = flow.referrer;
  const result = await db.transaction(async (tx) => {
    const user = await accountOf(ctx, tx, request, person, referrer);
    if ("error" in user) return user;
    return { url: await signedInUrl(ctx, tx, request, flow, user, "sso/saml") };
  });
  if ("error" in result) throw result.error;
  return result.url;
}

/**
 * The response's own Destination, when it names one, must be our ACS (the response around a
 * signed assertion may itself be unsigned: this is a check of intent, the assertion's Recipient
 * is the one that counts).
 */
function checkResponse(samlResponse: string, sp: ServiceProvider) {
  const destination = responseDestination(Buffer.from(samlResponse, "base64").toString("utf8"));
  if (destination && destination !== sp.acsUrl) throw new Error("Destination is not our ACS");
}

/**
 * The provider's metadata, fetched anew from its metadata URL when stale (kept on failure, as
 * GoTrue does).
 */
async function currentMetadata(
  ctx: AuthContext,
  request: FastifyRequest,
  provider: SsoProviderRow,
): Promise<IdpMetadata> {
  const metadata = parseIdpMetadata(provider.metadata_xml);
  if (!provider.metadata_url || !isMetadataStale(metadata, provider.saml_updated_at))
    return metadata;
  try {
    const raw = await fetchSamlMetadata(provider.metadata_url);
    const fresh = parseIdpMetadata(raw);
    if (fresh.entityId !== provider.entity_id) throw new Error("another entity id");
    await refreshSsoMetadata(ctx.app.db, provider.id, raw);
    return fresh;
  } catch (err) {
    request.log.warn(
      { err, sso_provider_id: provider.id },
      "SAML Metadata could not be retrieved, continuing with existing metadata",
    );
    return metadata;
  }
}
