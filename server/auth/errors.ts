// Auth errors in GoTrue's wire shape. Every code the auth service can answer is listed here,
// thrown as an AuthError, and written by one handler (see supabase/auth internal/api/apierrors).
import type { FastifyReply, FastifyRequest } from "fastify";
import { allowedMethods } from "../http/allowed-methods.ts";
import { BODY_LIMIT } from "../http/body-limit.ts";
import { ProtocolError, protocolErrorHandler } from "../http/protocol-errors.ts";

export const API_VERSION = "2024-01-01";

export const ErrorCode = {
  unexpected_failure: "unexpected_failure",
  unknown: "unknown",
  validation_failed: "validation_failed",
  bad_json: "bad_json",
  request_entity_too_large: "request_entity_too_large",
  not_found: "not_found",
  method_not_allowed: "method_not_allowed",
  no_authorization: "no_authorization",
  bad_jwt: "bad_jwt",
  unexpected_audience: "unexpected_audience",
  invalid_credentials: "invalid_credentials",
  email_not_confirmed: "email_not_confirmed",
  email_exists: "email_exists",
  user_already_exists: "user_already_exists",
  user_not_found: "user_not_found",
  weak_password: "weak_password",
  same_password: "same_password",
  current_password_required: "current_password_required",
  current_password_mismatch: "current_password_mismatch",
  session_not_found: "session_not_found",
  refresh_token_not_found: "refresh_token_not_found",
  refresh_token_already_used: "refresh_token_already_used",
  flow_state_not_found: "flow_state_not_found",
  flow_state_expired: "flow_state_expired",
  flow_state_already_used: "flow_state_already_used",
  bad_oauth_state: "bad_oauth_state",
  bad_oauth_callback: "bad_oauth_callback",
  oauth_provider_not_supported: "oauth_provider_not_supported",
  feature_disabled: "feature_disabled",
  oauth_client_not_found: "oauth_client_not_found",
  oauth_dynamic_client_registration_disabled: "oauth_dynamic_client_registration_disabled",
  oauth_authorization_not_found: "oauth_authorization_not_found",
  oauth_consent_not_found: "oauth_consent_not_found",
  provider_email_needs_verification: "provider_email_needs_verification",
  identity_already_exists: "identity_already_exists",
  bad_code_verifier: "bad_code_verifier",
  otp_expired: "otp_expired",
  over_request_rate_limit: "over_request_rate_limit",
  over_email_send_rate_limit: "over_email_send_rate_limit",
  signup_disabled: "signup_disabled",
  email_provider_disabled: "email_provider_disabled",
  phone_provider_disabled: "phone_provider_disabled",
  provider_disabled: "provider_disabled",
  anonymous_provider_disabled: "anonymous_provider_disabled",
  saml_provider_disabled: "saml_provider_disabled",
  saml_relay_state_not_found: "saml_relay_state_not_found",
  saml_relay_state_expired: "saml_relay_state_expired",
  saml_idp_not_found: "saml_idp_not_found",
  saml_assertion_no_user_id: "saml_assertion_no_user_id",
  saml_assertion_no_email: "saml_assertion_no_email",
  sso_provider_not_found: "sso_provider_not_found",
  sso_provider_disabled: "sso_provider_disabled",
  saml_metadata_fetch_failed: "saml_metadata_fetch_failed",
  saml_idp_already_exists: "saml_idp_already_exists",
  sso_domain_already_exists: "sso_domain_already_exists",
  saml_entity_id_mismatch: "saml_entity_id_mismatch",
  user_sso_managed: "user_sso_managed",
  manual_linking_disabled: "manual_linking_disabled",
  reauthentication_needed: "reauthentication_needed",
  reauthentication_not_valid: "reauthentication_not_valid",
  single_identity_not_deletable: "single_identity_not_deletable",
  identity_not_found: "identity_not_found",
  web3_provider_disabled: "web3_provider_disabled",
  mfa_totp_enroll_not_enabled: "mfa_totp_enroll_not_enabled",
  mfa_factor_not_found: "mfa_factor_not_found",
  mfa_factor_name_conflict: "mfa_factor_name_conflict",
  mfa_challenge_expired: "mfa_challenge_expired",
  mfa_verification_failed: "mfa_verification_failed",
  mfa_ip_address_mismatch: "mfa_ip_address_mismatch",
  mfa_totp_verify_not_enabled: "mfa_totp_verify_not_enabled",
  mfa_phone_enroll_not_enabled: "mfa_phone_enroll_not_enabled",
  mfa_webauthn_enroll_not_enabled: "mfa_webauthn_enroll_not_enabled",
  mfa_phone_verify_not_enabled: "mfa_phone_verify_not_enabled",
  mfa_webauthn_verify_not_enabled: "mfa_webauthn_verify_not_enabled",
  passkey_disabled: "passkey_disabled",
  too_many_passkeys: "too_many_passkeys",
  webauthn_credential_not_found: "webauthn_credential_not_found",
  webauthn_challenge_not_found: "webauthn_challenge_not_found",
  webauthn_challenge_expired: "webauthn_challenge_expired",
  webauthn_verification_failed: "webauthn_verification_failed",
  webauthn_credential_exists: "webauthn_credential_exists",
  mfa_verified_factor_exists: "mfa_verified_factor_exists",
  too_many_enrolled_mfa_factors: "too_many_enrolled_mfa_factors",
  insufficient_aal: "insufficient_aal",
  not_admin: "not_admin",
  otp_disabled: "otp_disabled",
  user_banned: "user_banned",
  conflict: "conflict",
  phone_exists: "phone_exists",
  phone_not_confirmed: "phone_not_confirmed",
  sms_send_failed: "sms_send_failed",
  over_sms_send_rate_limit: "over_sms_send_rate_limit",
  hook_timeout: "hook_timeout",
  hook_timeout_after_retry: "hook_timeout_after_retry",
  hook_payload_over_size_limit: "hook_payload_over_size_limit",
  hook_payload_invalid_content_type: "hook_payload_invalid_content_type",
} as const;
export type ErrorCode = (typeof ErrorCode)[keyof typeof ErrorCode];

export class AuthError extends ProtocolError<ErrorCode> {
  readonly extra: Record<string, unknown>;

  constructor(
    status: number,
    code: ErrorCode,
    message: string,
    extra: Record<string, unknown> = {},
  ) {
    super(status, code, message);
    this.extra = extra;
    this.name = "AuthError";
  }
}

/**
 * GoTrue's OAuthError: 400 with `{error, error_description}` and no error code (the id_token
 * grant's refusals of its request). supabase-js reads the description as the message.
 */
export class OAuthError extends AuthError {
  readonly error: string;

  constructor(error: string, description: string) {
    super(400, ErrorCode.unknown, description);
    this.error = error;
    this.name = "OAuthError";
  }
}

/**
 * Text as Go's `%q` (strconv.Quote) writes it into GoTrue's messages: in double quotes, `"` and
 * `\` escaped, printable characters (letters, marks, numbers, punctuation, symbols, the ASCII
 * space) as they are, the rest as Go's escapes; an unpaired surrogate is U+FFFD, as Go decoded it.
 */
export function goQuoted(text: string): string {
  const wellFormed = text.replace(
    /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g,
    "\uFFFD",
  );
  let quoted = '"';
  for (const char of wellFormed) {
    const point = char.codePointAt(0)!;
    if (char === '"' || char === "\\") quoted += `\\${char}`;
    else if (char === " " || /[\p{L}\p{M}\p{N}\p{P}\p{S}]/u.test(char)) quoted += char;
    else quoted += GO_ESCAPES[char] ?? goEscape(point);
  }
  return `${quoted}"`;
}

const GO_ESCAPES: Record<string, string> = {
  "\x07": "\\a",
  "\b": "\\b",
  "\f": "\\f",
  "\n": "\\n",
  "\r": "\\r",
  "\t": "\\t",
  "\v": "\\v",
};

function goEscape(point: number): string {
  const hex = (digits: number) => point.toString(16).padStart(digits, "0");
  if (point < 0x20 || point === 0x7f) return `\\x${hex(2)}`;
  return point < 0x10000 ? `\\u${hex(4)}` : `\\U${hex(8)}`;
}

/** GoTrue's answer when email accounts are turned off (GOTRUE_EXTERNAL_EMAIL_ENABLED=false). */
export const emailLoginsDisabled = (status: 400 | 422) =>
  new AuthError(status, ErrorCode.email_provider_disabled, "Email logins are disabled");

/** A 429 that says when to try again. */
export function tooMany(code: ErrorCode, message: string, retryAfterSeconds: number): AuthError {
  return new AuthError(429, code, message).retryingAfter(retryAfterSeconds);
}

/**
 * GoTrue's refusal of a repeat within `frequencySeconds` of `sentAt` (validateSentWithinFrequencyLimit
 * and its like), or undefined once that time has passed: 429 naming the whole seconds left, the
 * remainder dropped as Go's integer division drops it (generateFrequencyLimitErrorMessage).
 */
export function sentTooRecently(
  code: ErrorCode,
  sentAt: Date | string | null | undefined,
  frequencySeconds: number,
): AuthError | undefined {
  if (sentAt === null || sentAt === undefined) return undefined;
  const leftMs = new Date(sentAt).getTime() + frequencySeconds * 1000 - Date.now();
  return leftMs > 0 ? tooSoon(code, leftMs / 1000) : undefined;
}

/** GoTrue's 429 for a repeat with `secondsLeft` to wait: the whole seconds named, rounded down. */
export function tooSoon(code: ErrorCode, secondsLeft: number): AuthError {
  return tooMany(
    code,
    `For security purposes, you can only request this after ${Math.trunc(secondsLeft)} seconds.`,
    secondsLeft,
  );
}

export function sendAuthError(reply: FastifyReply, err: AuthError) {
  if (err instanceof OAuthError)
    return reply
      .code(err.status)
      .header("x-supabase-api-version", API_VERSION)
      .send({ error: err.error, error_description: err.message });
  return reply
    .code(err.status)
    .header("x-supabase-api-version", API_VERSION)
    .header("x-sb-error-code", err.code)
    .send({
      code: err.code,
      error_code: err.code,
      message: err.message,
      msg: err.message,
      ...err.extra,
    });
}

/** Error handler of the /auth/v1 scope: GoTrue's answers to what is refused before a handler runs. */
export const authErrorHandler = protocolErrorHandler<AuthError>({
  name: "auth request",
  own: (err) => (err instanceof AuthError ? err : undefined),
  problems: {
    too_large: () =>
      new AuthError(
        413,
        ErrorCode.request_entity_too_large,
        `Request body too large (max ${BODY_LIMIT} bytes)`,
      ),
    bad_json: () => new AuthError(400, ErrorCode.bad_json, "Could not parse request body as JSON"),
    media_type: (p) => new AuthError(p.status, ErrorCode.validation_failed, p.detail),
    validation: (p) => new AuthError(p.status, ErrorCode.validation_failed, p.detail),
    client: (p) => new AuthError(p.status, ErrorCode.validation_failed, p.detail),
    rate_limited: () =>
      new AuthError(429, ErrorCode.over_request_rate_limit, "Request rate limit reached"),
    unavailable: () =>
      new AuthError(
        503,
        ErrorCode.unexpected_failure,
        "Service temporarily unavailable, please try again later",
      ),
    internal: () =>
      new AuthError(
        500,
        ErrorCode.unexpected_failure,
        "Unexpected failure, please try again later",
      ),
  },
  send: sendAuthError,
});

export function authNotFound(request: FastifyRequest, reply: FastifyReply) {
  const allow = allowedMethods(request);
  if (allow.length === 0)
    return sendAuthError(reply, new AuthError(404, ErrorCode.not_found, "Not found"));
  reply.header("allow", allow.join(", "));
  return sendAuthError(
    reply,
    new AuthError(405, ErrorCode.method_not_allowed, "Method not allowed"),
  );
}
