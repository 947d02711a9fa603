// The environment variables the server reads, in one table: each one's parser (the rule its value
// must meet, with its default when it has a value of its own), and the default as the README's
// configuration table shows it where that is not the parser's own (worked out at start, or what
// unset means). The table's parsers make the environment's schema and its types (Env), which
// config.ts's Config is made of; config.test.ts checks the README's table against this one.
import { z } from "zod";
import { MIN_PASSWORD_LENGTH } from "../../common/accounts.ts";
import { DEFAULT_BOOK_DEMO_URL, DEMO_PAGE_ROUTE } from "../../common/site-build.ts";
import { isTimeZone } from "../../common/workspace.ts";

const bool = z
  .enum(["true", "false", "1", "0", "yes", "no"])
  .transform((v) => v === "true" || v === "1" || v === "yes");

/**
 * A control character (a line break, a tab, NUL, DEL, C1): never part of an address or a URL. In
 * an email header a line break starts a header of its own (a `Bcc`), and the URL parser silently
 * drops line breaks and tabs, so a broken value would be read as another one.
 */
export const CONTROL = /\p{Cc}/u;
const oneLine = z
  .string()
  .refine((v) => !CONTROL.test(v), "must not contain a line break or another control character");

/** A whole number written in decimal digits ("0x10", "1.5", " 5" and "1e3" are refused). */
const integer = (min: number, max: number) => {
  const rule = `must be a whole number from ${min} to ${max}`;
  return z
    .string()
    .regex(/^-?\d+$/, rule)
    .transform(Number)
    .pipe(z.number().min(min, rule).max(max, rule));
};

/** A number written in decimal digits, perhaps with a fraction ("0.5"; no "0x", exponent or spaces). */
const decimal = (min: number, max: number) => {
  const rule = `must be a number from ${min} to ${max}, in decimal digits`;
  return z
    .string()
    .regex(/^-?\d+(\.\d+)?$/, rule)
    .transform(Number)
    .pipe(z.number().min(min, rule).max(max, rule));
};

/** A path on the site (`/oauth/consent`): a slash first, no query, fragment or second slash after it. */
const sitePath = oneLine.regex(
  /^\/[A-Za-z0-9\-._~/]*$/,
  "must be a path on the site, such as /oauth/consent",
);

/** A number of requests per window; 0 turns the limit off. */
const perWindow = decimal(0, 1_000_000);

const urlWithScheme = (schemes: string[]) =>
  oneLine.refine(
    (v) => {
      try {
        return schemes.includes(new URL(v).protocol);
      } catch {
        return false;
      }
    },
    `must be a URL starting with ${schemes.map((s) => `${s}//`).join(" or ")}`,
  );

/**
 * A Go duration as GoTrue reads its durations: one or more numbers, each with its unit (`2m`,
 * `90s`, `1h30m`, `500ms`), in seconds.
 */
const goDuration = (max: number) => {
  const rule = `must be a duration such as 2m or 90s (at most ${max} s)`;
  const units: Record<string, number> = { h: 3600, m: 60, s: 1, ms: 0.001 };
  return oneLine
    .regex(/^(\d+(\.\d+)?(h|m|s|ms))+$/, rule)
    .transform((v) =>
      [...v.matchAll(/(\d+(?:\.\d+)?)(h|ms|m|s)/g)].reduce(
        (sum, [, n, unit]) => sum + Number(n) * units[unit!]!,
        0,
      ),
    )
    .pipe(z.number().min(0.001, rule).max(max, rule));
};

/**
 * SITE_URL is the public origin: every link is made by appending a path to it, so a path of its
 * own (or a query, a fragment, a user) would make every link point elsewhere.
 */
function isOrigin(value: string): boolean {
  try {
    const url = new URL(value);
    return url.pathname === "/" && !/[?#]/.test(value) && !url.username && !url.password;
  } catch {
    return false;
  }
}

/**
 * REDIS_URL's database, as ioredis reads it: the path (`/2`) or a `db` parameter, a whole number
 * from 0 (ioredis would parse "abc" as NaN and crash, "1.5" as 1 and "0x10" as 0).
 */
function hasRedisDatabase(value: string): boolean {
  try {
    const url = new URL(value);
    const path = url.pathname.replace(/^\//, "");
    const db = url.searchParams.get("db");
    return [path, db ?? ""].every((n) => n === "" || /^\d{1,9}$/.test(n));
  } catch {
    return false;
  }
}

/** NOTIFY_EMAIL's rule, and the address of MAIL_FROM. */
const emailAddress = z.email();
const isEmailAddress = (v: string) => emailAddress.safeParse(v).success;

/**
 * MAIL_FROM with a display name: a name of plain words (letters, digits, spaces and the marks an
 * unquoted name may hold) or a quoted one without quotes or backslashes inside, then the address
 * in angle brackets. A comma, a semicolon or a colon outside quotes would make nodemailer read
 * several senders or a group.
 */
const NAMED_SENDER = /^(?:(?:"[^"\\]+"|[\p{L}\p{M}\p{N} .'!#$%&*+\-/=?^_`{|}~]+) *)?<([^<>]+)>$/u;
const isSender = (v: string) => isEmailAddress(NAMED_SENDER.exec(v)?.[1] ?? v);

/**
 * The external identity providers the server can sign people in with, by GoTrue's names: OpenID
 * Connect issuers (Google, Microsoft Entra as `azure`, Keycloak or any OpenID provider at a realm
 * URL, Apple for ID tokens) and OAuth 2.0 sites with a user API (GitHub, GitLab).
 */
export const EXTERNAL_PROVIDERS = [
  "apple",
  "azure",
  "github",
  "gitlab",
  "google",
  "keycloak",
] as const;
export type ExternalProviderName = (typeof EXTERNAL_PROVIDERS)[number];

type Variable<T extends z.ZodType> = {
  parse: T;
  /** The default as the README shows it, where that is not the parser's own value. */
  shown: string | undefined;
};

const variable = <T extends z.ZodType>(parse: T, shown?: string): Variable<T> => ({ parse, shown });

/**
 * One provider's variables, GoTrue's: whether it is on, the client's id (several, comma-separated:
 * the first signs in by redirect, every one is an accepted ID-token audience) and secret, the
 * callback the provider sends people back to, the provider's own URL (a realm, a tenant, an
 * enterprise host) and whether ID tokens may come without the nonce they were asked for.
 */
function providerVariables<P extends ExternalProviderName>(provider: P) {
  const name = `GOTRUE_EXTERNAL_${provider.toUpperCase() as Uppercase<P>}` as const;
  return {
    [`${name}_ENABLED`]: variable(bool.default(false)),
    [`${name}_CLIENT_ID`]: variable(oneLine.optional()),
    [`${name}_SECRET`]: variable(oneLine.optional()),
    [`${name}_REDIRECT_URI`]: variable(
      urlWithScheme(["http:", "https:"]).optional(),
      "`$SITE_URL/auth/v1/callback`",
    ),
    [`${name}_URL`]: variable(
      urlWithScheme(["http:", "https:"]).optional(),
      "unset → the provider's public URL",
    ),
    [`${name}_SKIP_NONCE_CHECK`]: variable(bool.default(false)),
  } as {
    [K in `${typeof name}_${"ENABLED" | "SKIP_NONCE_CHECK"}`]: Variable<z.ZodDefault<typeof bool>>;
  } & {
    [K in `${typeof name}_${"CLIENT_ID" | "SECRET" | "REDIRECT_URI" | "URL"}`]: Variable<
      z.ZodOptional<typeof oneLine>
    >;
  };
}

export const VARIABLES = {
  NODE_ENV: variable(
    z.enum(["development", "production", "test"]).default("development"),
    "`production` for `npm start`, `development` for `npm run dev`",
  ),
  PORT: variable(integer(0, 65535).default(3000)),
  HOST: variable(z.string().min(1).default("127.0.0.1")),
  METRICS_PORT: variable(integer(0, 65535).optional()),
  METRICS_HOST: variable(z.string().min(1).default("127.0.0.1")),
  SITE_URL: variable(
    urlWithScheme(["http:", "https:"])
      .refine(
        isOrigin,
        "must be the public origin alone (https://revwise.example): no path, query, fragment or user",
      )
      .optional(),
    "`http://localhost:$PORT`",
  ),
  DATA_DIR: variable(z.string().min(1).default("./data")),
  DATABASE_URL: variable(
    urlWithScheme(["postgres:", "postgresql:"]).optional(),
    "unset → PGlite in `DATA_DIR`",
  ),
  REDIS_URL: variable(
    urlWithScheme(["redis:", "rediss:"])
      .refine(
        hasRedisDatabase,
        "must give its database as a whole number from 0 (redis://cache:6379/0), or none",
      )
      .optional(),
    "unset → in-process limits",
  ),
  SMTP_URL: variable(urlWithScheme(["smtp:", "smtps:"]).optional(), "unset → dev mailbox"),
  SMTP_POOL_SIZE: variable(integer(1, 50).default(2)),
  SMTP_PROBE_SECONDS: variable(decimal(0.1, 300).default(5)),
  MAIL_LEASE_SECONDS: variable(decimal(1, 3600).default(60)),
  MAIL_FROM: variable(
    oneLine
      .refine(
        isSender,
        "must be an email address, alone or after a name (Revwise <no-reply@revwise.example>)",
      )
      .default("Revwise <no-reply@revwise.example>"),
  ),
  NOTIFY_EMAIL: variable(
    oneLine
      .refine(isEmailAddress, "must be an email address (sales@revwise.example)")
      .default("sales@revwise.example"),
  ),
  JWT_SECRET: variable(
    z.string().min(32, "must be at least 32 characters").optional(),
    "generated once into `DATA_DIR`",
  ),
  JWT_EXP: variable(integer(60, 604800).default(3600)),
  GOTRUE_JWT_KEYS: variable(z.string().optional(), "unset → `JWT_SECRET` signs (HS256)"),
  MAILER_AUTOCONFIRM: variable(bool.default(false)),
  GOTRUE_DISABLE_SIGNUP: variable(bool.default(false)),
  GOTRUE_EXTERNAL_EMAIL_ENABLED: variable(bool.default(true)),
  GOTRUE_EXTERNAL_PHONE_ENABLED: variable(bool.default(false)),
  GOTRUE_EXTERNAL_ANONYMOUS_USERS_ENABLED: variable(bool.default(false)),
  GOTRUE_PASSWORD_MIN_LENGTH: variable(
    integer(MIN_PASSWORD_LENGTH, 72).default(MIN_PASSWORD_LENGTH),
  ),
  GOTRUE_RATE_LIMIT_TOKEN_REFRESH: variable(perWindow.default(150)),
  GOTRUE_RATE_LIMIT_VERIFY: variable(perWindow.default(30)),
  GOTRUE_RATE_LIMIT_OTP: variable(perWindow.default(30)),
  GOTRUE_RATE_LIMIT_ANONYMOUS_USERS: variable(perWindow.default(30)),
  GOTRUE_MFA_RATE_LIMIT_CHALLENGE_AND_VERIFY: variable(perWindow.default(15)),
  GOTRUE_SECURITY_MANUAL_LINKING_ENABLED: variable(bool.default(false)),
  GOTRUE_MFA_TOTP_ENROLL_ENABLED: variable(bool.default(true)),
  GOTRUE_MFA_TOTP_VERIFY_ENABLED: variable(bool.default(true)),
  GOTRUE_MFA_PHONE_ENROLL_ENABLED: variable(bool.default(false)),
  GOTRUE_MFA_PHONE_VERIFY_ENABLED: variable(bool.default(false)),
  GOTRUE_MFA_PHONE_OTP_LENGTH: variable(integer(6, 10).default(6)),
  GOTRUE_MFA_PHONE_MAX_FREQUENCY: variable(integer(0, 3600).default(5)),
  GOTRUE_MFA_MAX_ENROLLED_FACTORS: variable(integer(1, 100).default(10)),
  GOTRUE_MFA_CHALLENGE_EXPIRY_DURATION: variable(integer(30, 86_400).default(300)),
  GOTRUE_MFA_WEB_AUTHN_ENROLL_ENABLED: variable(bool.default(false)),
  GOTRUE_MFA_WEB_AUTHN_VERIFY_ENABLED: variable(bool.default(false)),
  GOTRUE_PASSKEY_ENABLED: variable(bool.default(false)),
  GOTRUE_PASSKEY_MAX_PASSKEYS_PER_USER: variable(integer(1, 100).default(10)),
  GOTRUE_RATE_LIMIT_PASSKEY: variable(perWindow.default(30)),
  GOTRUE_WEBAUTHN_RP_ID: variable(oneLine.optional(), "`SITE_URL`'s host name"),
  GOTRUE_WEBAUTHN_RP_DISPLAY_NAME: variable(oneLine.min(1).default("Revwise")),
  GOTRUE_WEBAUTHN_RP_ORIGINS: variable(oneLine.optional(), "`SITE_URL`"),
  GOTRUE_WEBAUTHN_CHALLENGE_EXPIRY_DURATION: variable(integer(10, 3600).default(300)),
  GOTRUE_SECURITY_UPDATE_PASSWORD_REQUIRE_REAUTHENTICATION: variable(bool.default(false)),
  GOTRUE_SECURITY_UPDATE_PASSWORD_REQUIRE_CURRENT_PASSWORD: variable(bool.default(true)),
  GOTRUE_OAUTH_SERVER_ENABLED: variable(bool.default(false)),
  GOTRUE_OAUTH_SERVER_ALLOW_DYNAMIC_REGISTRATION: variable(bool.default(false)),
  GOTRUE_OAUTH_SERVER_AUTHORIZATION_PATH: variable(sitePath.default("/oauth/consent")),
  GOTRUE_OAUTH_SERVER_AUTHORIZATION_TTL: variable(goDuration(3600).default(600), "`10m`"),
  GOTRUE_OAUTH_SERVER_DEFAULT_SCOPE: variable(oneLine.default("email")),
  GOTRUE_SMS_AUTOCONFIRM: variable(bool.default(false)),
  GOTRUE_SMS_OTP_EXP: variable(integer(30, 86_400).default(60)),
  GOTRUE_SMS_OTP_LENGTH: variable(integer(6, 10).default(6)),
  GOTRUE_HOOK_SEND_SMS_ENABLED: variable(bool.default(false)),
  GOTRUE_HOOK_SEND_SMS_URI: variable(oneLine.optional()),
  GOTRUE_HOOK_SEND_SMS_SECRETS: variable(z.string().optional()),
  LEAD_WEBHOOK_URL: variable(oneLine.optional()),
  LEAD_WEBHOOK_SECRET: variable(z.string().optional()),
  LEAD_WEBHOOK_LEASE_SECONDS: variable(decimal(1, 3600).default(60)),
  WEBHOOK_ALLOW_PRIVATE_ADDRESSES: variable(bool.optional(), "off in production, else on"),
  LEAD_DIGEST_SECONDS: variable(decimal(1, 86_400).default(900)),
  TEAM_TIME_ZONE: variable(
    oneLine
      .refine(isTimeZone, "must be an IANA time zone (America/Los_Angeles)")
      .default("America/Los_Angeles"),
  ),
  NEWSLETTER_SEND_RATE: variable(decimal(0.1, 10_000).default(10)),
  MAIL_EVENTS_SECRET: variable(z.string().min(32).optional()),
  RATE_LIMIT_EMAIL_SENT: variable(integer(1, 1_000_000).default(30)),
  RATE_LIMIT_EMAIL_IP: variable(integer(1, 1_000_000).default(10)),
  RATE_LIMIT_LEAD_EMAIL_SENT: variable(integer(1, 1_000_000).default(30)),
  GOTRUE_RATE_LIMIT_SMS_SENT: variable(integer(1, 1_000_000).default(30)),
  RATE_LIMIT_SMS_USER: variable(integer(1, 1_000_000).default(10)),
  GOTRUE_URI_ALLOW_LIST: variable(z.string().optional(), "unset → the site's own pages"),
  GOTRUE_EXTERNAL_ALLOWED_ID_TOKEN_ISSUERS: variable(
    z.string().optional(),
    "`https://appleid.apple.com,https://accounts.google.com`",
  ),
  GOTRUE_SAML_ENABLED: variable(bool.default(false)),
  GOTRUE_SAML_PRIVATE_KEY: variable(z.string().optional()),
  GOTRUE_SAML_RELAY_STATE_VALIDITY_PERIOD: variable(goDuration(86_400).optional(), "`2m`"),
  GOTRUE_SAML_EXTERNAL_URL: variable(
    urlWithScheme(["http:", "https:"]).optional(),
    "`$SITE_URL/auth/v1`",
  ),
  GOTRUE_RATE_LIMIT_SSO: variable(perWindow.default(30)),
  GOTRUE_SAML_RATE_LIMIT_ASSERTION: variable(perWindow.default(15)),
  ...providerVariables("apple"),
  ...providerVariables("azure"),
  ...providerVariables("github"),
  ...providerVariables("gitlab"),
  ...providerVariables("google"),
  ...providerVariables("keycloak"),
  DEV_MAILBOX: variable(
    bool.optional(),
    "on without `SMTP_URL` where only this machine reaches it",
  ),
  TRUST_PROXY: variable(z.string().default("false")),
  REQUEST_TIMEOUT_MS: variable(integer(1000, 600_000).default(30_000)),
  SHUTDOWN_DRAIN_MS: variable(integer(0, 120_000).optional(), "`5000` in production, else `0`"),
  LOG_FORMAT: variable(
    z.enum(["json", "pretty"]).optional(),
    "`pretty` on a terminal, else `json`",
  ),
  LOG_LEVEL: variable(
    z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("info"),
  ),
  SITE_DIR: variable(z.string().min(1).default("./build/client")),
  BOOK_DEMO_URL: variable(
    urlWithScheme(["http:", "https:"]).optional(),
    `\`VITE_BOOK_DEMO_URL\`, else \`${DEFAULT_BOOK_DEMO_URL}\``,
  ),
  VITE_BOOK_DEMO_URL: variable(
    urlWithScheme(["http:", "https:"]).optional(),
    `\`${DEFAULT_BOOK_DEMO_URL}\``,
  ),
  DEMO_URL: variable(
    urlWithScheme(["http:", "https:"]).optional(),
    `\`$SITE_URL${DEMO_PAGE_ROUTE}\``,
  ),
};

export type VariableName = keyof typeof VARIABLES;

/** The schema of the environment: each variable's parser. */
export const envSchema = z.object(
  Object.fromEntries(Object.entries(VARIABLES).map(([name, v]) => [name, v.parse])) as {
    [K in VariableName]: (typeof VARIABLES)[K]["parse"];
  },
);

/** The environment as parsed: each variable's value, of its parser's type. */
export type Env = z.output<typeof envSchema>;

/** A variable's default as the README's configuration table writes it. */
export function shownDefault(name: VariableName): string {
  const { parse, shown } = VARIABLES[name];
  if (shown !== undefined) return shown;
  const unset = (parse as z.ZodType).safeParse(undefined);
  return unset.success && unset.data !== undefined ? `\`${String(unset.data)}\`` : "unset";
}
