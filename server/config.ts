// The server's configuration: environment variables parsed once at boot (the table of them,
// with their rules and defaults: config/variables.ts), then checked together and turned into the
// Config every part reads. A bad value stops the start with a one-line message naming the
// variable (see server.ts).
import crypto from "node:crypto";
import net from "node:net";
import path from "node:path";
import type { z } from "zod";
import { DEFAULT_BOOK_DEMO_URL, DEMO_PAGE_ROUTE } from "../common/site-build.ts";
import {
  CONTROL,
  envSchema,
  EXTERNAL_PROVIDERS,
  type Env,
  type ExternalProviderName,
} from "./config/variables.ts";
import { isLoopbackHost } from "./platform/addresses.ts";
import { endpointUrl, isEndpointSecret, SECRET_RULE, URL_RULE } from "./security/endpoint-rules.ts";
import { JwtKeysError, parseJwtKeys, type JwtKey } from "./security/jwt-keys.ts";

/**
 * The WebAuthn relying party: GOTRUE_WEBAUTHN_RP_ID (else SITE_URL's host name) and
 * GOTRUE_WEBAUTHN_RP_ORIGINS (comma-separated, else SITE_URL's origin). Every origin must be the
 * id's host or under it, or no browser would ever make a credential for it: refused at start.
 */
function relyingParty(e: Env, siteUrl: string): Config["webauthn"] {
  const rpId = (e.GOTRUE_WEBAUTHN_RP_ID ?? new URL(siteUrl).hostname).toLowerCase();
  const listed = (e.GOTRUE_WEBAUTHN_RP_ORIGINS ?? siteUrl)
    .split(",")
    .map((o) => o.trim())
    .filter(Boolean);
  const rpOrigins = listed.map((origin) => {
    let url: URL | undefined;
    try {
      url = new URL(origin);
    } catch {
      url = undefined;
    }
    if (
      !url ||
      !["http:", "https:"].includes(url.protocol) ||
      url.origin !== origin.replace(/\/$/, "")
    )
      throw new ConfigError(
        `Invalid configuration: GOTRUE_WEBAUTHN_RP_ORIGINS must list origins (https://revwise.example), comma-separated: ${JSON.stringify(origin)} is not one`,
      );
    if (url.hostname !== rpId && !url.hostname.endsWith(`.${rpId}`))
      throw new ConfigError(
        `Invalid configuration: GOTRUE_WEBAUTHN_RP_ORIGINS ${url.origin} is not on GOTRUE_WEBAUTHN_RP_ID ${rpId} (each origin's host must be the id or under it)`,
      );
    return url.origin;
  });
  if (rpOrigins.length === 0)
    throw new ConfigError("Invalid configuration: GOTRUE_WEBAUTHN_RP_ORIGINS lists no origin");
  return {
    rpId,
    rpOrigins,
    rpDisplayName: e.GOTRUE_WEBAUTHN_RP_DISPLAY_NAME,
    challengeSeconds: e.GOTRUE_WEBAUTHN_CHALLENGE_EXPIRY_DURATION,
  };
}

/**
 * What every part of the server reads (app.config): the variables' values, each of its parser's
 * type (Env), as the parts name them, and what follows from several together.
 */
export type Config = {
  env: Env["NODE_ENV"];
  port: Env["PORT"];
  host: Env["HOST"];
  siteUrl: string;
  dataDir: string;
  databaseUrl: Env["DATABASE_URL"];
  redisUrl: Env["REDIS_URL"];
  smtpUrl: Env["SMTP_URL"];
  /** SMTP connections each instance keeps open; as many emails go out at once. */
  smtpPoolSize: Env["SMTP_POOL_SIZE"];
  /** While the SMTP server is down, how often each instance checks whether it is back. */
  smtpProbeMs: number;
  /** How long an email's claim outlives an instance that died sending it. */
  mailLeaseMs: number;
  mailFrom: Env["MAIL_FROM"];
  notifyEmail: Env["NOTIFY_EMAIL"];
  jwtSecret: Env["JWT_SECRET"];
  /**
   * GOTRUE_JWT_KEYS: the key with "sign" in its key_ops signs the access tokens (with its kid);
   * unset, JWT_SECRET signs them (HS256). JWT_SECRET signs the API keys either way.
   */
  jwtKeys: JwtKey[] | undefined;
  jwtExpSeconds: Env["JWT_EXP"];
  mailerAutoconfirm: Env["MAILER_AUTOCONFIRM"];
  /** No new accounts: sign-ups (and sign-in links or codes for new addresses) are refused. */
  signupDisabled: Env["GOTRUE_DISABLE_SIGNUP"];
  /** Accounts by email address (sign-up, sign-in, links and codes). */
  emailEnabled: Env["GOTRUE_EXTERNAL_EMAIL_ENABLED"];
  /** Sign-ins without an address or number (`is_anonymous` users). */
  anonymousEnabled: Env["GOTRUE_EXTERNAL_ANONYMOUS_USERS_ENABLED"];
  /** The shortest password accepted (never below the site's own minimum). */
  passwordMinLength: Env["GOTRUE_PASSWORD_MIN_LENGTH"];
  /**
   * GoTrue's per-IP refilling buckets, as requests per window (0: no limit): token grants and
   * refreshes, verifications, and each endpoint that sends a link or code (per 5 minutes); MFA
   * challenges and verifications (per minute); anonymous sign-ins (per hour).
   */
  authRateLimits: {
    token: Env["GOTRUE_RATE_LIMIT_TOKEN_REFRESH"];
    verify: Env["GOTRUE_RATE_LIMIT_VERIFY"];
    otp: Env["GOTRUE_RATE_LIMIT_OTP"];
    mfa: Env["GOTRUE_MFA_RATE_LIMIT_CHALLENGE_AND_VERIFY"];
    anonymous: Env["GOTRUE_RATE_LIMIT_ANONYMOUS_USERS"];
    /** POST /sso (per 5 minutes) and the SAML assertions posted to /sso/saml/acs (per 5 minutes). */
    sso: Env["GOTRUE_RATE_LIMIT_SSO"];
    samlAssertion: Env["GOTRUE_SAML_RATE_LIMIT_ASSERTION"];
    /** Passkey sign-ins' options (per 5 minutes, GoTrue's GOTRUE_RATE_LIMIT_PASSKEY). */
    passkey: Env["GOTRUE_RATE_LIMIT_PASSKEY"];
  };
  /** Phone sign-ups and sign-ins (password or code), and phone numbers on accounts. */
  phoneEnabled: Env["GOTRUE_EXTERNAL_PHONE_ENABLED"];
  /** Signed-in users may link and unlink identities themselves. */
  manualLinkingEnabled: Env["GOTRUE_SECURITY_MANUAL_LINKING_ENABLED"];
  /** The external identity providers turned on (GOTRUE_EXTERNAL_<PROVIDER>_*), by name. */
  external: Partial<Record<ExternalProviderName, ExternalProviderConfig>>;
  /**
   * GOTRUE_EXTERNAL_ALLOWED_ID_TOKEN_ISSUERS: issuers whose ID tokens the id_token grant takes
   * with an `issuer` and a `client_id` instead of a provider (GoTrue's deprecated fallback).
   */
  allowedIdTokenIssuers: string[];
  /** SAML 2.0 single sign-on (GOTRUE_SAML_*); undefined: off. */
  saml: SamlConfig | undefined;
  /** GOTRUE_URI_ALLOW_LIST: GoTrue's globs of the other places redirect_to may lead. */
  uriAllowList: string[];
  /** MFA with authenticator apps (TOTP): enrolment, verification, factors per user, challenge life. */
  mfa: {
    totpEnroll: Env["GOTRUE_MFA_TOTP_ENROLL_ENABLED"];
    totpVerify: Env["GOTRUE_MFA_TOTP_VERIFY_ENABLED"];
    /** Phone factors: codes by text message (the Send SMS hook, or the dev mailbox). */
    phoneEnroll: Env["GOTRUE_MFA_PHONE_ENROLL_ENABLED"];
    phoneVerify: Env["GOTRUE_MFA_PHONE_VERIFY_ENABLED"];
    phoneOtpLength: Env["GOTRUE_MFA_PHONE_OTP_LENGTH"];
    /** Seconds between two codes sent to one phone factor. */
    phoneMaxFrequencySeconds: Env["GOTRUE_MFA_PHONE_MAX_FREQUENCY"];
    maxFactors: Env["GOTRUE_MFA_MAX_ENROLLED_FACTORS"];
    challengeSeconds: Env["GOTRUE_MFA_CHALLENGE_EXPIRY_DURATION"];
    /** Security keys (and passkeys) as second factors: WebAuthn factors. */
    webauthnEnroll: Env["GOTRUE_MFA_WEB_AUTHN_ENROLL_ENABLED"];
    webauthnVerify: Env["GOTRUE_MFA_WEB_AUTHN_VERIFY_ENABLED"];
  };
  /** Passkeys that sign people in (GOTRUE_PASSKEY_*), and how many one account may have. */
  passkeys: {
    enabled: Env["GOTRUE_PASSKEY_ENABLED"];
    maxPerUser: Env["GOTRUE_PASSKEY_MAX_PASSKEYS_PER_USER"];
  };
  /**
   * The WebAuthn relying party of passkeys and WebAuthn factors (GOTRUE_WEBAUTHN_*): its id (a
   * host name every origin is on), the origins a ceremony may come from, the name authenticators
   * show, and how long a challenge lives.
   */
  webauthn: {
    rpId: string;
    rpOrigins: string[];
    rpDisplayName: Env["GOTRUE_WEBAUTHN_RP_DISPLAY_NAME"];
    challengeSeconds: Env["GOTRUE_WEBAUTHN_CHALLENGE_EXPIRY_DURATION"];
  };
  /** A session over a day old changes its password only with a reauthentication code. */
  passwordChangeNeedsReauthentication: Env["GOTRUE_SECURITY_UPDATE_PASSWORD_REQUIRE_REAUTHENTICATION"];
  /**
   * A new password needs the current one (or, for an account without one, a reauthentication
   * code), unless the session was opened by an emailed link or code moments ago: decision 0045.
   */
  passwordChangeNeedsCurrentPassword: Env["GOTRUE_SECURITY_UPDATE_PASSWORD_REQUIRE_CURRENT_PASSWORD"];
  sms: SmsConfig;
  /** The OAuth 2.1 server (GOTRUE_OAUTH_SERVER_*): other tools act for a person with consent. */
  oauthServer: OAuthServerConfig;
  /** LEAD_WEBHOOK_URL and LEAD_WEBHOOK_SECRET: an endpoint every new lead is sent to. */
  leadWebhook: LeadWebhook | undefined;
  /** How long a webhook delivery's claim outlives an instance that died sending it. */
  webhookLeaseMs: number;
  /**
   * Whether admins' endpoints may be on loopback or private addresses (LEAD_WEBHOOK_URL, the
   * operator's, always may): by default only outside production.
   */
  webhookAllowPrivateAddresses: boolean;
  /** At most one digest email of a kind's new leads to the team per this many ms (decision 0030). */
  leadDigestMs: number;
  /** The team's time zone: its emails' times, and the day of each member's due-leads email. */
  teamTimeZone: Env["TEAM_TIME_ZONE"];
  /** Newsletter copies queued per second, across every instance (decision 0054). */
  newsletterRate: Env["NEWSLETTER_SEND_RATE"];
  /** The mail provider's bounce and complaint notifications prove themselves with this. */
  mailEventsSecret: Env["MAIL_EVENTS_SECRET"];
  /**
   * Emails to addresses visitors type, per hour: account emails for the whole site (Supabase's
   * account-email budget: 30), the lead forms' replies (the demo email, the newsletter's
   * confirmation) for the whole site, and both for one client IP.
   */
  emailsPerHour: Env["RATE_LIMIT_EMAIL_SENT"];
  leadEmailsPerHour: Env["RATE_LIMIT_LEAD_EMAIL_SENT"];
  emailsPerIpPerHour: Env["RATE_LIMIT_EMAIL_IP"];
  /**
   * Text messages, per hour: for the whole site (GoTrue's SMS budget: 30), and for one person (the
   * account asking, and the number texted); per client IP they share the emails' budget.
   */
  textsPerHour: Env["GOTRUE_RATE_LIMIT_SMS_SENT"];
  textsPerPersonPerHour: Env["RATE_LIMIT_SMS_USER"];
  devMailbox: boolean;
  /** Which peers may state the client's address in X-Forwarded-For (Fastify's trustProxy). */
  trustProxy: TrustProxy;
  /** Where Prometheus scrapes /metrics (a listener of its own); undefined: no metrics. */
  metrics: { host: string; port: number } | undefined;
  /**
   * Whether every answer carries Strict-Transport-Security: a production site whose public origin
   * (SITE_URL) is https. A site served over plain HTTP never sends it.
   */
  hsts: boolean;
  /** The longest a request may take to arrive, headers and body (a slow sender is cut with 408). */
  requestTimeoutMs: Env["REQUEST_TIMEOUT_MS"];
  /** How long readiness says 503 after SIGTERM, while requests are still served, before closing. */
  shutdownDrainMs: number;
  /** Readable lines for a person at a terminal, JSON lines for a log collector. */
  logFormat: NonNullable<Env["LOG_FORMAT"]>;
  logLevel: Env["LOG_LEVEL"];
  siteDir: string;
  /** The scheduling page of "Book Demo" (the same as the site's, see VITE_BOOK_DEMO_URL). */
  bookDemoUrl: string;
  /** Where the demo email sends people (the product tour unless DEMO_URL says otherwise). */
  demoUrl: string;
};

export type SmsConfig = {
  /** Phone sign-ups are confirmed at once, without a code. */
  autoconfirm: Env["GOTRUE_SMS_AUTOCONFIRM"];
  otpExpSeconds: Env["GOTRUE_SMS_OTP_EXP"];
  otpLength: Env["GOTRUE_SMS_OTP_LENGTH"];
  /** GoTrue's "Send SMS" hook; without it, text messages go to the dev mailbox. */
  hook: SendSmsHook | undefined;
};

export type OAuthServerConfig = {
  enabled: Env["GOTRUE_OAUTH_SERVER_ENABLED"];
  /** POST /oauth/clients/register is open to anyone (RFC 7591), not only the admin API. */
  allowDynamicRegistration: Env["GOTRUE_OAUTH_SERVER_ALLOW_DYNAMIC_REGISTRATION"];
  /** The site's consent page, where GET /oauth/authorize sends the browser. */
  authorizationPath: Env["GOTRUE_OAUTH_SERVER_AUTHORIZATION_PATH"];
  /** How long an authorization request (and the code it yields) lives. */
  authorizationTtlMs: number;
  /** The scope of a request that names none. */
  defaultScope: Env["GOTRUE_OAUTH_SERVER_DEFAULT_SCOPE"];
};

export type SendSmsHook = {
  url: string;
  /** The `v1,whsec_…` secrets, each signing every message (Standard Webhooks). */
  secrets: string[];
};

/** The CRM webhook an operator sets in the environment (every new lead is sent to it). */
export type LeadWebhook = { url: string; secret: string };

/** false: the socket's address is the client's; else the addresses/CIDRs of trusted proxies. */
type TrustProxy = false | string[];

export class ConfigError extends Error {
  override name = "ConfigError";
}

/** proxy-addr's names for address ranges, accepted in TRUST_PROXY beside addresses and CIDRs. */
const PROXY_RANGES = new Set(["loopback", "linklocal", "uniquelocal"]);

/**
 * TRUST_PROXY: `false` (default) or a comma list of the proxies' addresses, CIDRs or proxy-addr's
 * `loopback`/`linklocal`/`uniquelocal`. The client's address is then the right-most address of
 * X-Forwarded-For that is not a trusted proxy's. Refused: `true`, which trusts every address in
 * the header, including those a client wrote (any client could choose its address and dodge
 * every per-IP limit), and a hop count, which cannot tell a proxy from a client connecting
 * directly (Fastify 5.12 treats a number as "trust nobody" for that reason).
 */
function parseTrustProxy(value: string): TrustProxy | string {
  const v = value.trim().toLowerCase();
  if (v === "false" || v === "no" || v === "0") return false;
  const fix = "give the addresses of the proxies in front (127.0.0.1, 10.0.0.0/8, loopback)";
  if (v === "true" || v === "yes" || v === "1")
    return `true is refused: it trusts X-Forwarded-For addresses that clients write; ${fix}`;
  if (/^\d+$/.test(v))
    return `hop counts are refused: they trust clients that connect directly; ${fix}`;
  const entries = v.split(",").map((e) => e.trim());
  const bad = entries.find((e) => {
    if (PROXY_RANGES.has(e)) return false;
    const [address, prefix, ...rest] = e.split("/");
    const family = net.isIP(address ?? "");
    if (family === 0 || rest.length > 0) return true;
    if (prefix === undefined) return false;
    return !/^\d+$/.test(prefix) || Number(prefix) > (family === 4 ? 32 : 128);
  });
  return bad === undefined ? entries : `"${bad}" is not an address, a CIDR or a range name; ${fix}`;
}

const HOOK_SECRET = /^v1,whsec_[A-Za-z0-9+/=]{32,88}$/;
const PLAIN_HTTP_HOOK_HOSTS = new Set(["localhost", "127.0.0.1", "[::1]", "host.docker.internal"]);

/**
 * The Send SMS hook as GoTrue accepts it: https, or http to this machine only; every secret a
 * symmetric Standard Webhooks secret (`v1,whsec_` and base64), several separated by "|".
 */
function parseSendSmsHook(e: {
  GOTRUE_HOOK_SEND_SMS_ENABLED: boolean;
  GOTRUE_HOOK_SEND_SMS_URI?: string | undefined;
  GOTRUE_HOOK_SEND_SMS_SECRETS?: string | undefined;
}): SendSmsHook | undefined {
  if (!e.GOTRUE_HOOK_SEND_SMS_ENABLED) return undefined;
  const bad = (what: string) =>
    new ConfigError(`Invalid configuration: GOTRUE_HOOK_SEND_SMS_${what}`);
  let url: URL;
  try {
    url = new URL(e.GOTRUE_HOOK_SEND_SMS_URI ?? "");
  } catch {
    throw bad("URI must be the URL of the hook when GOTRUE_HOOK_SEND_SMS_ENABLED is true");
  }
  if (
    url.protocol !== "https:" &&
    !(url.protocol === "http:" && PLAIN_HTTP_HOOK_HOSTS.has(url.hostname))
  )
    throw bad("URI must be https (http only to localhost, 127.0.0.1 or ::1)");
  const secrets = (e.GOTRUE_HOOK_SEND_SMS_SECRETS ?? "").split("|").filter((s) => s !== "");
  if (secrets.length === 0 || !secrets.every((s) => HOOK_SECRET.test(s)))
    throw bad('SECRETS must be one or more "v1,whsec_<base64>" secrets separated by "|"');
  return { url: url.toString(), secrets };
}

/**
 * The operator's CRM webhook: LEAD_WEBHOOK_URL (https, or http to this machine only) and its
 * Standard Webhooks secret LEAD_WEBHOOK_SECRET (`whsec_` and 24 to 64 bytes in base64).
 */
function parseLeadWebhook(e: {
  LEAD_WEBHOOK_URL?: string | undefined;
  LEAD_WEBHOOK_SECRET?: string | undefined;
}): LeadWebhook | undefined {
  if (e.LEAD_WEBHOOK_URL === undefined) {
    if (e.LEAD_WEBHOOK_SECRET !== undefined)
      throw new ConfigError(
        "Invalid configuration: LEAD_WEBHOOK_SECRET is set without LEAD_WEBHOOK_URL (where would the events go?)",
      );
    return undefined;
  }
  const url = endpointUrl(e.LEAD_WEBHOOK_URL);
  if (!url) throw new ConfigError(`Invalid configuration: LEAD_WEBHOOK_URL must be ${URL_RULE}`);
  if (!isEndpointSecret(e.LEAD_WEBHOOK_SECRET ?? ""))
    throw new ConfigError(`Invalid configuration: LEAD_WEBHOOK_SECRET must be ${SECRET_RULE}`);
  return { url, secret: e.LEAD_WEBHOOK_SECRET! };
}

/** GOTRUE_JWT_KEYS, parsed and checked (security/jwt-keys.ts); its message never shows a key. */
function jwtKeysOf(value: string): JwtKey[] {
  try {
    return parseJwtKeys(value);
  } catch (err) {
    if (err instanceof JwtKeysError)
      throw new ConfigError(`Invalid configuration: GOTRUE_JWT_KEYS ${err.message}`);
    throw err;
  }
}

/** Parses the environment; throws ConfigError with one line naming the first bad variable. */
export function loadConfig(
  env: NodeJS.ProcessEnv = process.env,
  stdoutIsTerminal = Boolean(process.stdout.isTTY),
): Config {
  // An empty variable (`FOO=` in a .env file) means "not set".
  const present = Object.fromEntries(
    Object.entries(env).filter(([, v]) => v !== undefined && v !== ""),
  );
  const parsed = envSchema.safeParse(present);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const name = String(issue.path[0] ?? "environment");
    throw new ConfigError(`Invalid configuration: ${name} ${describe(issue, present[name])}`);
  }
  const e = parsed.data;
  const trustProxy = parseTrustProxy(e.TRUST_PROXY);
  if (typeof trustProxy === "string")
    throw new ConfigError(`Invalid configuration: TRUST_PROXY ${trustProxy}`);
  // Several instances share one database and Redis; each must issue tokens with the same issuer
  // and signing secret, and write the same links into emails, or they refuse each other's tokens.
  const shared = e.DATABASE_URL ? "DATABASE_URL" : e.REDIS_URL ? "REDIS_URL" : undefined;
  for (const name of ["SITE_URL", "JWT_SECRET"] as const) {
    if (shared && !e[name])
      throw new ConfigError(
        `Invalid configuration: ${name} must be set when ${shared} is set (every instance of a shared deployment needs the same one)`,
      );
  }
  // A production server reachable from other machines would write localhost links into emails.
  if (e.NODE_ENV === "production" && !isLoopbackHost(e.HOST) && !e.SITE_URL)
    throw new ConfigError(
      `Invalid configuration: SITE_URL must be set when a production server listens on ${e.HOST} (the public origin of email links and tokens)`,
    );
  const siteUrl = e.SITE_URL ? new URL(e.SITE_URL).origin : `http://localhost:${e.PORT}`;
  const jwtKeys = e.GOTRUE_JWT_KEYS === undefined ? undefined : jwtKeysOf(e.GOTRUE_JWT_KEYS);
  const sendSmsHook = parseSendSmsHook(e);
  const leadWebhook = parseLeadWebhook(e);
  // Without SMTP, emails are shown in the dev mailbox wherever only this machine can see it: a
  // production server on loopback that trusts no proxy and serves a loopback origin (a proxy on
  // the same machine would bring the world to it).
  const onlyThisMachine =
    isLoopbackHost(e.HOST) && trustProxy === false && isLoopbackHost(new URL(siteUrl).hostname);
  const devMailbox =
    e.DEV_MAILBOX ?? (!e.SMTP_URL && (e.NODE_ENV !== "production" || onlyThisMachine));
  // Text messages without the hook are only ever shown in the dev mailbox.
  if (
    (e.GOTRUE_EXTERNAL_PHONE_ENABLED || e.GOTRUE_MFA_PHONE_ENROLL_ENABLED) &&
    !sendSmsHook &&
    !devMailbox
  )
    throw new ConfigError(
      `Invalid configuration: ${e.GOTRUE_EXTERNAL_PHONE_ENABLED ? "GOTRUE_EXTERNAL_PHONE_ENABLED" : "GOTRUE_MFA_PHONE_ENROLL_ENABLED"} needs GOTRUE_HOOK_SEND_SMS_ENABLED and its URI and secrets (text messages have nowhere to go)`,
    );
  return {
    env: e.NODE_ENV,
    port: e.PORT,
    host: e.HOST,
    siteUrl,
    dataDir: path.resolve(e.DATA_DIR),
    databaseUrl: e.DATABASE_URL,
    redisUrl: e.REDIS_URL,
    smtpUrl: e.SMTP_URL,
    smtpPoolSize: e.SMTP_POOL_SIZE,
    smtpProbeMs: e.SMTP_PROBE_SECONDS * 1000,
    mailLeaseMs: e.MAIL_LEASE_SECONDS * 1000,
    mailFrom: e.MAIL_FROM,
    notifyEmail: e.NOTIFY_EMAIL,
    jwtSecret: e.JWT_SECRET,
    jwtKeys,
    jwtExpSeconds: e.JWT_EXP,
    mailerAutoconfirm: e.MAILER_AUTOCONFIRM,
    signupDisabled: e.GOTRUE_DISABLE_SIGNUP,
    emailEnabled: e.GOTRUE_EXTERNAL_EMAIL_ENABLED,
    anonymousEnabled: e.GOTRUE_EXTERNAL_ANONYMOUS_USERS_ENABLED,
    passwordMinLength: e.GOTRUE_PASSWORD_MIN_LENGTH,
    authRateLimits: {
      token: e.GOTRUE_RATE_LIMIT_TOKEN_REFRESH,
      verify: e.GOTRUE_RATE_LIMIT_VERIFY,
      otp: e.GOTRUE_RATE_LIMIT_OTP,
      mfa: e.GOTRUE_MFA_RATE_LIMIT_CHALLENGE_AND_VERIFY,
      anonymous: e.GOTRUE_RATE_LIMIT_ANONYMOUS_USERS,
      sso: e.GOTRUE_RATE_LIMIT_SSO,
      samlAssertion: e.GOTRUE_SAML_RATE_LIMIT_ASSERTION,
      passkey: e.GOTRUE_RATE_LIMIT_PASSKEY,
    },
    phoneEnabled: e.GOTRUE_EXTERNAL_PHONE_ENABLED,
    manualLinkingEnabled: e.GOTRUE_SECURITY_MANUAL_LINKING_ENABLED,
    external: externalProviders(e, siteUrl),
    allowedIdTokenIssuers: (
      e.GOTRUE_EXTERNAL_ALLOWED_ID_TOKEN_ISSUERS ??
      "https://appleid.apple.com,https://accounts.google.com"
    )
      .split(",")
      .map((issuer) => issuer.trim())
      .filter(Boolean),
    saml: samlConfig(e, siteUrl),
    uriAllowList: (e.GOTRUE_URI_ALLOW_LIST ?? "")
      .split(",")
      .map((uri) => uri.trim())
      .filter(Boolean),
    mfa: {
      totpEnroll: e.GOTRUE_MFA_TOTP_ENROLL_ENABLED,
      totpVerify: e.GOTRUE_MFA_TOTP_VERIFY_ENABLED,
      phoneEnroll: e.GOTRUE_MFA_PHONE_ENROLL_ENABLED,
      phoneVerify: e.GOTRUE_MFA_PHONE_VERIFY_ENABLED,
      phoneOtpLength: e.GOTRUE_MFA_PHONE_OTP_LENGTH,
      phoneMaxFrequencySeconds: e.GOTRUE_MFA_PHONE_MAX_FREQUENCY,
      maxFactors: e.GOTRUE_MFA_MAX_ENROLLED_FACTORS,
      challengeSeconds: e.GOTRUE_MFA_CHALLENGE_EXPIRY_DURATION,
      webauthnEnroll: e.GOTRUE_MFA_WEB_AUTHN_ENROLL_ENABLED,
      webauthnVerify: e.GOTRUE_MFA_WEB_AUTHN_VERIFY_ENABLED,
    },
    passkeys: {
      enabled: e.GOTRUE_PASSKEY_ENABLED,
      maxPerUser: e.GOTRUE_PASSKEY_MAX_PASSKEYS_PER_USER,
    },
    webauthn: relyingParty(e, siteUrl),
    passwordChangeNeedsReauthentication: e.GOTRUE_SECURITY_UPDATE_PASSWORD_REQUIRE_REAUTHENTICATION,
    passwordChangeNeedsCurrentPassword: e.GOTRUE_SECURITY_UPDATE_PASSWORD_REQUIRE_CURRENT_PASSWORD,
    sms: {
      autoconfirm: e.GOTRUE_SMS_AUTOCONFIRM,
      otpExpSeconds: e.GOTRUE_SMS_OTP_EXP,
      otpLength: e.GOTRUE_SMS_OTP_LENGTH,
      hook: sendSmsHook,
    },
    oauthServer: {
      enabled: e.GOTRUE_OAUTH_SERVER_ENABLED,
      allowDynamicRegistration: e.GOTRUE_OAUTH_SERVER_ALLOW_DYNAMIC_REGISTRATION,
      authorizationPath: e.GOTRUE_OAUTH_SERVER_AUTHORIZATION_PATH,
      authorizationTtlMs: e.GOTRUE_OAUTH_SERVER_AUTHORIZATION_TTL * 1000,
      defaultScope: e.GOTRUE_OAUTH_SERVER_DEFAULT_SCOPE,
    },
    leadWebhook,
    webhookLeaseMs: e.LEAD_WEBHOOK_LEASE_SECONDS * 1000,
    webhookAllowPrivateAddresses: e.WEBHOOK_ALLOW_PRIVATE_ADDRESSES ?? e.NODE_ENV !== "production",
    leadDigestMs: e.LEAD_DIGEST_SECONDS * 1000,
    teamTimeZone: e.TEAM_TIME_ZONE,
    newsletterRate: e.NEWSLETTER_SEND_RATE,
    mailEventsSecret: e.MAIL_EVENTS_SECRET,
    emailsPerHour: e.RATE_LIMIT_EMAIL_SENT,
    emailsPerIpPerHour: e.RATE_LIMIT_EMAIL_IP,
    leadEmailsPerHour: e.RATE_LIMIT_LEAD_EMAIL_SENT,
    textsPerHour: e.GOTRUE_RATE_LIMIT_SMS_SENT,
    textsPerPersonPerHour: e.RATE_LIMIT_SMS_USER,
    devMailbox,
    trustProxy,
    metrics:
      e.METRICS_PORT === undefined ? undefined : { host: e.METRICS_HOST, port: e.METRICS_PORT },
    hsts: e.NODE_ENV === "production" && new URL(siteUrl).protocol === "https:",
    requestTimeoutMs: e.REQUEST_TIMEOUT_MS,
    shutdownDrainMs: e.SHUTDOWN_DRAIN_MS ?? (e.NODE_ENV === "production" ? 5000 : 0),
    logFormat: e.LOG_FORMAT ?? (stdoutIsTerminal ? "pretty" : "json"),
    logLevel: e.LOG_LEVEL,
    siteDir: path.resolve(e.SITE_DIR),
    bookDemoUrl: e.BOOK_DEMO_URL ?? e.VITE_BOOK_DEMO_URL ?? DEFAULT_BOOK_DEMO_URL,
    demoUrl: e.DEMO_URL ?? `${siteUrl}${DEMO_PAGE_ROUTE}`,
  };
}

export type ExternalProviderConfig = {
  /** The client's ids: the first signs in by redirect, every one is an accepted ID-token audience. */
  clientIds: string[];
  secret: string;
  /** Where the provider sends the browser back: this server's /auth/v1/callback. */
  redirectUri: string;
  /** The provider's own URL (realm, tenant, enterprise host); undefined: its public one. */
  url: string | undefined;
  skipNonceCheck: boolean;
};

/**
 * The providers turned on, each with its client; one turned on without what it needs stops the
 * start (a client id, and a secret but for Apple, whose ID tokens need none; Keycloak's URL).
 */
function externalProviders(e: Env, siteUrl: string): Config["external"] {
  const external: Config["external"] = {};
  for (const provider of EXTERNAL_PROVIDERS) {
    const name = `GOTRUE_EXTERNAL_${provider.toUpperCase() as Uppercase<typeof provider>}` as const;
    if (!e[`${name}_ENABLED`]) continue;
    const clientIds = (e[`${name}_CLIENT_ID`] ?? "")
      .split(",")
      .map((id) => id.trim())
      .filter(Boolean);
    const secret = e[`${name}_SECRET`] ?? "";
    const url = e[`${name}_URL`]?.replace(/\/+$/, "");
    const missing = [
      clientIds.length === 0 && `${name}_CLIENT_ID`,
      !secret && provider !== "apple" && `${name}_SECRET`,
      !url && provider === "keycloak" && `${name}_URL`,
    ].filter(Boolean);
    if (missing.length > 0)
      throw new ConfigError(
        `Invalid configuration: ${name}_ENABLED needs ${missing.join(" and ")}`,
      );
    external[provider] = {
      clientIds,
      secret,
      redirectUri: e[`${name}_REDIRECT_URI`] ?? `${siteUrl}/auth/v1/callback`,
      url,
      skipNonceCheck: e[`${name}_SKIP_NONCE_CHECK`],
    };
  }
  return external;
}

export type SamlConfig = {
  /** The service provider's RSA key (GOTRUE_SAML_PRIVATE_KEY): it signs the requests we send. */
  privateKey: crypto.KeyObject;
  /** How long a sign-in's request waits for the identity provider's answer, in seconds. */
  relayStateSeconds: number;
  /** This service's URL as the identity provider knows it; `/sso/saml/…` follows it. */
  externalUrl: string;
};

/**
 * GOTRUE_SAML_*: on, with the key GoTrue accepts (standard Base64 of a PKCS#1 RSA key, exponent
 * 65537, 2048 bits or more), or off; a missing or wrong key stops the start in GoTrue's words.
 */
function samlConfig(e: Env, siteUrl: string): SamlConfig | undefined {
  if (!e.GOTRUE_SAML_ENABLED) return undefined;
  const fail = (what: string) =>
    new ConfigError(`Invalid configuration: GOTRUE_SAML_PRIVATE_KEY: SAML private key ${what}`);
  const encoded = e.GOTRUE_SAML_PRIVATE_KEY ?? "";
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(encoded) || encoded.length % 4 !== 0)
    throw fail("not in standard Base64 format");
  let privateKey: crypto.KeyObject;
  try {
    privateKey = crypto.createPrivateKey({
      key: Buffer.from(encoded, "base64"),
      format: "der",
      type: "pkcs1",
    });
  } catch {
    throw fail("not in PKCS#1 format");
  }
  const details = privateKey.asymmetricKeyDetails;
  if (details?.publicExponent !== 65537n)
    throw fail("should use the 65537 (0x10001) RSA public exponent");
  if ((details.modulusLength ?? 0) < 2048) throw fail("must be at least RSA 2048");
  return {
    privateKey,
    relayStateSeconds: e.GOTRUE_SAML_RELAY_STATE_VALIDITY_PERIOD ?? 120,
    externalUrl: (e.GOTRUE_SAML_EXTERNAL_URL ?? `${siteUrl}/auth/v1`).replace(/\/+$/, ""),
  };
}

function describe(issue: z.core.$ZodIssue, value: string | undefined): string {
  const shown =
    value === undefined
      ? ""
      : ` (got "${escapeControls(value.length > 40 ? `${value.slice(0, 40)}…` : value)}")`;
  // Never echo a secret back into a log.
  const safe =
    String(issue.path[0]).endsWith("SECRET") || /pass|secret|whsec_|:\/\/[^@]*@/i.test(value ?? "")
      ? ""
      : shown;
  return `${issue.message.replace(/^Invalid input: /, "")}${safe}`;
}

/** A value shown in the one-line message: a line break is written `\n`, never broken. */
function escapeControls(value: string): string {
  const named: Record<string, string> = { "\r": "\\r", "\n": "\\n", "\t": "\\t" };
  return value.replace(
    new RegExp(CONTROL, "gu"),
    (c) => named[c] ?? `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`,
  );
}
