import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { privateJwk, secretJwk } from "../tests/support/jwt-keys.ts";
import { ConfigError, loadConfig } from "./config.ts";
import {
  EXTERNAL_PROVIDERS,
  shownDefault,
  VARIABLES,
  type VariableName,
} from "./config/variables.ts";

describe("loadConfig", () => {
  it("gives the documented defaults", () => {
    const c = loadConfig({});
    expect(c).toMatchObject({
      env: "development",
      port: 3000,
      host: "127.0.0.1",
      siteUrl: "http://localhost:3000",
      dataDir: path.resolve("./data"),
      databaseUrl: undefined,
      mailFrom: "Revwise <no-reply@revwise.example>",
      notifyEmail: "sales@revwise.example",
      jwtExpSeconds: 3600,
      jwtKeys: undefined,
      mailerAutoconfirm: false,
      devMailbox: true,
      smtpPoolSize: 2,
      smtpProbeMs: 5_000,
      mailLeaseMs: 60_000,
    });
  });

  it("derives SITE_URL from PORT and strips a trailing slash from an explicit one", () => {
    expect(loadConfig({ PORT: "8080" }).siteUrl).toBe("http://localhost:8080");
    expect(loadConfig({ SITE_URL: "https://revwise.example/" }).siteUrl).toBe(
      "https://revwise.example",
    );
  });

  it("treats empty variables as unset", () => {
    expect(loadConfig({ PORT: "", DATABASE_URL: "" })).toMatchObject({
      port: 3000,
      databaseUrl: undefined,
    });
  });

  it("keeps the dev mailbox on without SMTP unless a production server is reachable from elsewhere", () => {
    expect(loadConfig({ NODE_ENV: "production" }).devMailbox).toBe(true);
    expect(loadConfig({ NODE_ENV: "production", HOST: "::1" }).devMailbox).toBe(true);
    const exposed = {
      NODE_ENV: "production",
      HOST: "0.0.0.0",
      SITE_URL: "https://revwise.example",
    };
    expect(loadConfig(exposed).devMailbox).toBe(false);
    // On loopback behind a proxy on the same machine, or serving a public origin: others reach it.
    const proxied = { NODE_ENV: "production", HOST: "127.0.0.1" };
    expect(loadConfig({ ...proxied, TRUST_PROXY: "loopback" }).devMailbox).toBe(false);
    expect(loadConfig({ ...proxied, SITE_URL: "https://revwise.example" }).devMailbox).toBe(false);
    expect(loadConfig({ ...proxied, SITE_URL: "http://127.0.0.1:8080" }).devMailbox).toBe(true);
    expect(loadConfig({ ...proxied, SITE_URL: "http://[::1]:3000" }).devMailbox).toBe(true);
    // A name that only starts like a loopback address is anyone's host.
    expect(loadConfig({ ...proxied, SITE_URL: "http://127.attacker.example" }).devMailbox).toBe(
      false,
    );
    expect(
      loadConfig({ ...proxied, HOST: "127.0.0.2", SITE_URL: "http://127.1.2.3" }).devMailbox,
    ).toBe(true);
    expect(loadConfig({ ...exposed, DEV_MAILBOX: "true" }).devMailbox).toBe(true);
    expect(loadConfig({ SMTP_URL: "smtp://127.0.0.1:2525" }).devMailbox).toBe(false);
    expect(loadConfig({ NODE_ENV: "production", DEV_MAILBOX: "false" }).devMailbox).toBe(false);
  });

  it("writes readable log lines to a terminal and JSON lines otherwise", () => {
    expect(loadConfig({}, true).logFormat).toBe("pretty");
    expect(loadConfig({}, false).logFormat).toBe("json");
    expect(loadConfig({ LOG_FORMAT: "json" }, true).logFormat).toBe("json");
    expect(loadConfig({ LOG_FORMAT: "pretty" }, false).logFormat).toBe("pretty");
  });

  it("trusts X-Forwarded-For only from the proxies it names", () => {
    expect(loadConfig({}).trustProxy).toBe(false);
    expect(loadConfig({ TRUST_PROXY: "false" }).trustProxy).toBe(false);
    expect(
      loadConfig({ TRUST_PROXY: "127.0.0.1, 10.0.0.0/8,fd00::/8,loopback" }).trustProxy,
    ).toEqual(["127.0.0.1", "10.0.0.0/8", "fd00::/8", "loopback"]);
  });

  it.each([
    [
      "true",
      /^Invalid configuration: TRUST_PROXY true is refused: it trusts X-Forwarded-For addresses that clients write; give the addresses/,
    ],
    ["1", /^Invalid configuration: TRUST_PROXY true is refused/],
    ["2", /^Invalid configuration: TRUST_PROXY hop counts are refused/],
    ["10.0.0.0/33", /^Invalid configuration: TRUST_PROXY "10.0.0.0\/33" is not an address/],
    ["proxy.internal", /^Invalid configuration: TRUST_PROXY "proxy.internal" is not an address/],
  ])("refuses TRUST_PROXY=%s with one line saying what to give instead", (value, message) => {
    expect(() => loadConfig({ TRUST_PROXY: value })).toThrow(message);
  });

  it("reads the request timeout and the shutdown drain (5 s in production, none elsewhere)", () => {
    expect(loadConfig({})).toMatchObject({ requestTimeoutMs: 30_000, shutdownDrainMs: 0 });
    expect(loadConfig({ NODE_ENV: "production" }).shutdownDrainMs).toBe(5000);
    expect(
      loadConfig({ REQUEST_TIMEOUT_MS: "5000", SHUTDOWN_DRAIN_MS: "0", NODE_ENV: "production" }),
    ).toMatchObject({ requestTimeoutMs: 5000, shutdownDrainMs: 0 });
    expect(() => loadConfig({ REQUEST_TIMEOUT_MS: "10" })).toThrow(
      /^Invalid configuration: REQUEST_TIMEOUT_MS /,
    );
  });

  it.each([
    [
      { DATABASE_URL: "postgres://db/revwise", JWT_SECRET: "x".repeat(32) },
      "SITE_URL",
      "DATABASE_URL",
    ],
    [
      { DATABASE_URL: "postgres://db/revwise", SITE_URL: "https://revwise.example" },
      "JWT_SECRET",
      "DATABASE_URL",
    ],
    [{ REDIS_URL: "redis://cache:6379", JWT_SECRET: "x".repeat(32) }, "SITE_URL", "REDIS_URL"],
  ])(
    "refuses a shared deployment without the values every instance must share (%o)",
    (env, missing, shared) => {
      expect(() => loadConfig(env)).toThrow(
        `Invalid configuration: ${missing} must be set when ${shared} is set (every instance of a shared deployment needs the same one)`,
      );
    },
  );

  it("refuses a production server reachable from other machines without SITE_URL", () => {
    expect(() => loadConfig({ NODE_ENV: "production", HOST: "0.0.0.0" })).toThrow(
      /^Invalid configuration: SITE_URL must be set when a production server listens on 0\.0\.0\.0/,
    );
    expect(loadConfig({ NODE_ENV: "production", HOST: "127.0.0.1" }).siteUrl).toBe(
      "http://localhost:3000",
    );
    expect(loadConfig({ NODE_ENV: "development", HOST: "0.0.0.0" }).siteUrl).toBe(
      "http://localhost:3000",
    );
  });

  it.each([
    ["PORT", "abc"],
    ["PORT", "70000"],
    ["DATABASE_URL", "mysql://x"],
    ["SITE_URL", "not a url"],
    ["NOTIFY_EMAIL", "nobody"],
    ["NODE_ENV", "staging"],
    ["MAILER_AUTOCONFIRM", "maybe"],
    ["JWT_SECRET", "short"],
    ["SMTP_POOL_SIZE", "0"],
    ["SMTP_PROBE_SECONDS", "soon"],
    ["MAIL_LEASE_SECONDS", "0"],
    ["LEAD_WEBHOOK_LEASE_SECONDS", "0"],
  ])("rejects a bad %s with one line naming it", (name, value) => {
    let error: unknown;
    try {
      loadConfig({ [name]: value });
    } catch (err) {
      error = err;
    }
    expect(error).toBeInstanceOf(ConfigError);
    const message = (error as Error).message;
    expect(message).toMatch(new RegExp(`^Invalid configuration: ${name} `));
    expect(message).not.toContain("\n");
  });

  /** Loads the configuration expecting a refusal: the ConfigError's message. */
  function refusal(env: Record<string, string>): string {
    try {
      loadConfig(env);
    } catch (err) {
      expect(err).toBeInstanceOf(ConfigError);
      return (err as Error).message;
    }
    throw new Error(`accepted ${JSON.stringify(env)}`);
  }

  /** One line naming the variable, with no control character (an echoed value is escaped). */
  function expectOneLineNaming(message: string, name: string) {
    expect(message).toMatch(new RegExp(`^Invalid configuration: ${name} `));
    expect(message).not.toMatch(/\p{Cc}/u);
  }

  it.each([
    "no-reply@revwise.example",
    "Revwise <no-reply@revwise.example>",
    "<no-reply@revwise.example>",
    '"Revwise, Inc." <no-reply@revwise.example>',
    "Révwise Équipe <no-reply@revwise.example>",
    "O'Brien & Co. <no-reply@revwise.example>",
  ])("accepts MAIL_FROM=%j: an address, or a name and an address in angle brackets", (value) => {
    expect(loadConfig({ MAIL_FROM: value }).mailFrom).toBe(value);
  });

  it.each([
    "not an address",
    "a@b",
    "x\r\nBcc: evil@example.com",
    "Revwise <no-reply@revwise.example>\r\nBcc: evil@example.com",
    "Revwise <a@b>",
    "Revwise no-reply@revwise.example",
    "Revwise, Inc. <no-reply@revwise.example>",
    "one@revwise.example, two@revwise.example",
    '"Rev"wise" <no-reply@revwise.example>',
    "Revwise <no-reply@revwise.example> trailing",
  ])("refuses MAIL_FROM=%j in one line naming it, as NOTIFY_EMAIL is refused", (value) => {
    expectOneLineNaming(refusal({ MAIL_FROM: value }), "MAIL_FROM");
  });

  it("refuses NOTIFY_EMAIL with a header after a line break, in one line naming it", () => {
    expectOneLineNaming(
      refusal({ NOTIFY_EMAIL: "sales@revwise.example\r\nBcc: evil@example.com" }),
      "NOTIFY_EMAIL",
    );
  });

  // Every value that ends up in an email header or a URL (the URL parser would silently drop a
  // line break or a tab, and keep what the operator did not mean).
  const headerOrUrlValues: [string, string][] = [
    ["SITE_URL", "https://revwise.example"],
    ["DEMO_URL", "https://revwise.example/product/tour"],
    ["BOOK_DEMO_URL", "https://cal.example/revwise/demo"],
    ["VITE_BOOK_DEMO_URL", "https://cal.example/revwise/demo"],
    ["SMTP_URL", "smtp://mail.example:25"],
    ["DATABASE_URL", "postgres://db.example/revwise"],
    ["REDIS_URL", "redis://cache.example:6379/0"],
    ["LEAD_WEBHOOK_URL", "https://crm.example/hooks/leads"],
    ["GOTRUE_HOOK_SEND_SMS_URI", "https://hooks.example/sms"],
    ["NOTIFY_EMAIL", "sales@revwise.example"],
    ["MAIL_FROM", "Revwise <no-reply@revwise.example>"],
  ];
  it.each(
    headerOrUrlValues.flatMap(([name, value]) =>
      ["\r\n", "\n", "\t", "\u0000", "\u007f", "\u0085"].flatMap((control) => [
        [name, `${value}${control}`],
        [name, `${value.slice(0, 12)}${control}${value.slice(12)}`],
      ]),
    ),
  )("refuses a control character in %s (%j) in one line naming it", (name, value) => {
    expectOneLineNaming(refusal({ [name]: value }), name);
  });

  it("keeps SITE_URL as the origin it names", () => {
    expect(loadConfig({ SITE_URL: "https://Revwise.Example:443/" }).siteUrl).toBe(
      "https://revwise.example",
    );
    expect(loadConfig({ SITE_URL: "http://127.0.0.1:8080" }).siteUrl).toBe("http://127.0.0.1:8080");
  });

  it.each([
    "http://host.example/sub/path",
    "https://revwise.example/app/",
    "https://revwise.example//",
    "https://revwise.example/?ref=ad",
    "https://revwise.example?",
    "https://revwise.example/#top",
    "https://user:hunter2@revwise.example",
  ])("refuses SITE_URL=%s, which is more than an origin, in one line naming it", (value) => {
    const message = refusal({ SITE_URL: value });
    expectOneLineNaming(message, "SITE_URL");
    expect(message).toContain("origin");
    expect(message).not.toContain("hunter2");
  });

  // Each variable with a value in its range, written as a plain decimal number.
  const integers: [string, number][] = [
    ["PORT", 8080],
    ["SMTP_POOL_SIZE", 4],
    ["JWT_EXP", 7200],
    ["GOTRUE_PASSWORD_MIN_LENGTH", 12],
    ["GOTRUE_MFA_PHONE_OTP_LENGTH", 8],
    ["GOTRUE_MFA_PHONE_MAX_FREQUENCY", 30],
    ["GOTRUE_MFA_MAX_ENROLLED_FACTORS", 5],
    ["GOTRUE_MFA_CHALLENGE_EXPIRY_DURATION", 600],
    ["GOTRUE_SMS_OTP_EXP", 120],
    ["GOTRUE_SMS_OTP_LENGTH", 8],
    ["RATE_LIMIT_EMAIL_SENT", 50],
    ["RATE_LIMIT_EMAIL_IP", 20],
    ["RATE_LIMIT_LEAD_EMAIL_SENT", 40],
    ["REQUEST_TIMEOUT_MS", 5000],
    ["SHUTDOWN_DRAIN_MS", 2000],
  ];
  const decimals: [string, number][] = [
    ["SMTP_PROBE_SECONDS", 5],
    ["MAIL_LEASE_SECONDS", 30],
    ["LEAD_WEBHOOK_LEASE_SECONDS", 30],
    ["LEAD_DIGEST_SECONDS", 600],
    ["GOTRUE_RATE_LIMIT_TOKEN_REFRESH", 100],
    ["GOTRUE_RATE_LIMIT_VERIFY", 20],
    ["GOTRUE_RATE_LIMIT_OTP", 20],
    ["GOTRUE_RATE_LIMIT_ANONYMOUS_USERS", 20],
    ["GOTRUE_MFA_RATE_LIMIT_CHALLENGE_AND_VERIFY", 10],
  ];
  /** The same number in forms Number() reads but an operator would not mean. */
  const notPlain = (n: number) => [
    `0x${n.toString(16)}`,
    ` ${n}`,
    `${n} `,
    `+${n}`,
    `${n}e0`,
    `${n / 10}e1`,
    `${n}\n`,
  ];

  it.each(integers)("reads %s only as a plain decimal whole number", (name, n) => {
    expect(() => loadConfig({ [name]: String(n) })).not.toThrow();
    for (const value of [...notPlain(n), `${n}.0`, `${n}.5`])
      expectOneLineNaming(refusal({ [name]: value }), name);
  });

  it.each(decimals)("reads %s only as a plain decimal number", (name, n) => {
    expect(() => loadConfig({ [name]: String(n) })).not.toThrow();
    expect(() => loadConfig({ [name]: `${n}.5` })).not.toThrow();
    for (const value of notPlain(n)) expectOneLineNaming(refusal({ [name]: value }), name);
  });

  it("reads the numbers it is given in decimal", () => {
    expect(
      loadConfig({ PORT: "0016", SMTP_PROBE_SECONDS: "0.5", MAIL_LEASE_SECONDS: "2.5" }),
    ).toMatchObject({ port: 16, smtpProbeMs: 500, mailLeaseMs: 2500 });
  });

  it("reads REDIS_URL's database number: none, or a whole number from 0", () => {
    const shared = { SITE_URL: "https://revwise.example", JWT_SECRET: "x".repeat(32) };
    for (const url of [
      "redis://cache.example:6379",
      "redis://cache.example:6379/",
      "redis://cache.example:6379/2",
      "rediss://:secret@cache.example:6380/15",
      "redis://cache.example:6379?db=3",
    ])
      expect(loadConfig({ ...shared, REDIS_URL: url }).redisUrl).toBe(url);
    for (const url of [
      "redis://127.0.0.1:6379/abc",
      "redis://127.0.0.1:6379/-1",
      "redis://127.0.0.1:6379/1.5",
      "redis://127.0.0.1:6379/0x1",
      "redis://127.0.0.1:6379/%201",
      "redis://127.0.0.1:6379/2/3",
      "redis://127.0.0.1:6379/?db=abc",
      "redis://127.0.0.1:6379/2?db=x",
      "redis://:hunter2@127.0.0.1:6379/abc",
    ]) {
      const message = refusal({ ...shared, REDIS_URL: url });
      expectOneLineNaming(message, "REDIS_URL");
      expect(message).toContain("database");
      expect(message).not.toContain("hunter2");
    }
  });

  it("never echoes a secret or a password in its message", () => {
    expect(() => loadConfig({ JWT_SECRET: "too-short-secret" })).toThrow(
      /^Invalid configuration: JWT_SECRET [^"]*$/,
    );
    const err = (() => {
      try {
        loadConfig({ SMTP_URL: "http://user:hunter2@mail" });
      } catch (e) {
        return e as Error;
      }
    })();
    expect(err?.message).toMatch(/^Invalid configuration: SMTP_URL/);
    expect(err?.message).not.toContain("hunter2");
  });

  it("reads the phone settings and the Send SMS hook under GoTrue's names", () => {
    expect(loadConfig({})).toMatchObject({
      phoneEnabled: false,
      sms: { autoconfirm: false, otpExpSeconds: 60, otpLength: 6, hook: undefined },
    });
    const secret = `v1,whsec_${"a".repeat(43)}=`;
    const hooked = loadConfig({
      GOTRUE_EXTERNAL_PHONE_ENABLED: "true",
      GOTRUE_SMS_OTP_LENGTH: "8",
      GOTRUE_HOOK_SEND_SMS_ENABLED: "true",
      GOTRUE_HOOK_SEND_SMS_URI: "https://hooks.example/sms",
      GOTRUE_HOOK_SEND_SMS_SECRETS: `${secret}|${secret}`,
    });
    expect(hooked).toMatchObject({ phoneEnabled: true, sms: { otpLength: 8 } });
    expect(hooked.sms.hook).toEqual({
      url: "https://hooks.example/sms",
      secrets: [secret, secret],
    });
    const refused = (env: Record<string, string>) => () =>
      loadConfig({ GOTRUE_HOOK_SEND_SMS_ENABLED: "true", ...env });
    expect(refused({ GOTRUE_HOOK_SEND_SMS_SECRETS: secret })).toThrow(/GOTRUE_HOOK_SEND_SMS_URI/);
    expect(
      refused({
        GOTRUE_HOOK_SEND_SMS_URI: "http://hooks.example/",
        GOTRUE_HOOK_SEND_SMS_SECRETS: secret,
      }),
    ).toThrow(/must be https/);
    const badSecret = refused({
      GOTRUE_HOOK_SEND_SMS_URI: "http://localhost:9000/",
      GOTRUE_HOOK_SEND_SMS_SECRETS: "whsec_hunter2hunter2hunter2hunter2",
    });
    expect(badSecret).toThrow(/GOTRUE_HOOK_SEND_SMS_SECRETS/);
    expect(badSecret).not.toThrow(/hunter2/);
    // Phones on a production server with nowhere to send text messages: refused at start.
    expect(() =>
      loadConfig({
        NODE_ENV: "production",
        SMTP_URL: "smtp://mail:25",
        GOTRUE_EXTERNAL_PHONE_ENABLED: "true",
      }),
    ).toThrow(/GOTRUE_EXTERNAL_PHONE_ENABLED needs GOTRUE_HOOK_SEND_SMS_ENABLED/);
  });

  it("reads the CRM webhook: https (http to this machine only) and a whsec_ secret", () => {
    expect(loadConfig({})).toMatchObject({ leadWebhook: undefined, webhookLeaseMs: 60_000 });
    expect(loadConfig({ LEAD_WEBHOOK_LEASE_SECONDS: "2" }).webhookLeaseMs).toBe(2_000);
    const secret = `whsec_${Buffer.alloc(32, 7).toString("base64")}`;
    expect(
      loadConfig({
        LEAD_WEBHOOK_URL: "https://crm.example/hooks/leads",
        LEAD_WEBHOOK_SECRET: secret,
      }).leadWebhook,
    ).toEqual({ url: "https://crm.example/hooks/leads", secret });
    for (const host of ["localhost:9000", "127.0.0.1:9000", "[::1]:9000"])
      expect(
        loadConfig({ LEAD_WEBHOOK_URL: `http://${host}/in`, LEAD_WEBHOOK_SECRET: secret })
          .leadWebhook?.url,
      ).toBe(`http://${host}/in`);
    const refused = (env: Record<string, string>) => () => loadConfig(env);
    for (const url of ["http://crm.example/in", "ftp://crm.example/", "not a url"])
      expect(refused({ LEAD_WEBHOOK_URL: url, LEAD_WEBHOOK_SECRET: secret })).toThrow(
        /^Invalid configuration: LEAD_WEBHOOK_URL must be an https:\/\/ URL/,
      );
    for (const bad of [
      undefined,
      "hunter2hunter2hunter2hunter2hunter2",
      "whsec_hunter2",
      `whsec_${Buffer.alloc(65).toString("base64")}`,
      "whsec_not base64 at all, hunter2",
    ]) {
      const start = refused({
        LEAD_WEBHOOK_URL: "https://crm.example/in",
        ...(bad === undefined ? {} : { LEAD_WEBHOOK_SECRET: bad }),
      });
      expect(start).toThrow(/^Invalid configuration: LEAD_WEBHOOK_SECRET must be whsec_/);
      expect(start).not.toThrow(/hunter2/);
    }
    expect(refused({ LEAD_WEBHOOK_SECRET: secret })).toThrow(
      /^Invalid configuration: LEAD_WEBHOOK_SECRET is set without LEAD_WEBHOOK_URL/,
    );
  });

  it("reads GoTrue's signing keys: the key with sign in its key_ops signs, the others verify", () => {
    const signing = privateJwk("ES256", "new");
    const previous = privateJwk("RS256", "old", ["verify"]);
    const { d: _d, p: _p, q: _q, dp: _dp, dq: _dq, qi: _qi, ...previousPublic } = previous;
    const keys = loadConfig({
      GOTRUE_JWT_KEYS: JSON.stringify([signing, previousPublic, secretJwk("legacy")]),
    }).jwtKeys!;
    expect(keys.map((k) => [k.kid, k.alg, k.signs])).toEqual([
      ["new", "ES256", true],
      ["old", "RS256", false],
      ["legacy", "HS256", false],
    ]);
    // The public halves only, never a private part; no JWK at all for the secret.
    expect(keys[0]!.publicJwk).toEqual({
      kty: "EC",
      crv: "P-256",
      x: signing.x,
      y: signing.y,
      kid: "new",
      alg: "ES256",
      use: "sig",
      key_ops: ["verify"],
    });
    expect(keys[1]!.publicJwk).toMatchObject({ kty: "RSA", n: previous.n, e: previous.e });
    expect(keys[1]!.publicJwk).not.toHaveProperty("d");
    expect(keys[2]!.publicJwk).toBeUndefined();
  });

  it.each([
    ["not JSON", "{"],
    ["not an array", JSON.stringify(privateJwk("ES256"))],
    ["empty", "[]"],
    ["no signing key", JSON.stringify([privateJwk("ES256", "a", ["verify"])])],
    ["two signing keys", JSON.stringify([privateJwk("ES256", "a"), privateJwk("ES256", "b")])],
    ["the same kid twice", JSON.stringify([privateJwk("ES256", "a"), secretJwk("a")])],
    ["no kid", JSON.stringify([{ ...privateJwk("ES256"), kid: undefined }])],
    ["no alg", JSON.stringify([{ ...privateJwk("ES256"), alg: undefined }])],
    ["an alg its key type cannot do", JSON.stringify([{ ...privateJwk("ES256"), alg: "RS256" }])],
    ["an unsupported alg", JSON.stringify([{ ...privateJwk("ES256"), alg: "ES512" }])],
    ["a public key that signs", JSON.stringify([{ ...privateJwk("ES256"), d: undefined }])],
    ["a broken key", JSON.stringify([{ ...privateJwk("ES256"), x: "AAAA" }])],
    ["halves of two keys", JSON.stringify([{ ...privateJwk("ES256"), d: privateJwk("ES256").d }])],
    [
      "RSA halves of two keys",
      JSON.stringify([{ ...privateJwk("RS256"), n: privateJwk("RS256").n }]),
    ],
    ["a short secret", JSON.stringify([{ ...secretJwk(), k: "c2hvcnQ", key_ops: ["sign"] }])],
    ["a small RSA key", JSON.stringify([smallRsaKey()])],
  ])("refuses GOTRUE_JWT_KEYS with %s in one line that shows no key", (_, value) => {
    let error: unknown;
    try {
      loadConfig({ GOTRUE_JWT_KEYS: value });
    } catch (err) {
      error = err;
    }
    expect(error).toBeInstanceOf(ConfigError);
    const message = (error as Error).message;
    expect(message).toMatch(/^Invalid configuration: GOTRUE_JWT_KEYS /);
    expect(message).not.toContain("\n");
    const key = (value.startsWith("[") ? JSON.parse(value)[0] : undefined) ?? {};
    for (const secret of ["d", "k", "p", "q"])
      if (typeof key[secret] === "string") expect(message).not.toContain(key[secret]);
  });
});

function smallRsaKey() {
  const { privateKey } = crypto.generateKeyPairSync("rsa", { modulusLength: 1024 });
  return { ...privateKey.export({ format: "jwk" }), kid: "small", alg: "RS256", key_ops: ["sign"] };
}

describe("SAML single sign-on", () => {
  const pkcs1 = (bits: number, publicExponent = 65537) =>
    crypto
      .generateKeyPairSync("rsa", { modulusLength: bits, publicExponent })
      .privateKey.export({ format: "der", type: "pkcs1" })
      .toString("base64");

  it("is off unless GOTRUE_SAML_ENABLED, and on with GoTrue's key and defaults", () => {
    expect(loadConfig({ GOTRUE_SAML_PRIVATE_KEY: "ignored" }).saml).toBeUndefined();
    const config = loadConfig({
      GOTRUE_SAML_ENABLED: "true",
      GOTRUE_SAML_PRIVATE_KEY: pkcs1(2048),
      SITE_URL: "https://revwise.example",
    });
    expect(config.saml).toMatchObject({
      relayStateSeconds: 120,
      externalUrl: "https://revwise.example/auth/v1",
    });
    expect(config.saml!.privateKey.asymmetricKeyDetails?.modulusLength).toBe(2048);
    expect(
      loadConfig({
        GOTRUE_SAML_ENABLED: "true",
        GOTRUE_SAML_PRIVATE_KEY: pkcs1(2048),
        GOTRUE_SAML_RELAY_STATE_VALIDITY_PERIOD: "1m30s",
        GOTRUE_SAML_EXTERNAL_URL: "https://auth.revwise.example/",
      }).saml,
    ).toMatchObject({ relayStateSeconds: 90, externalUrl: "https://auth.revwise.example" });
  });

  it.each([
    ["missing", undefined, "not in PKCS#1 format"],
    ["not Base64", "not base64!", "not in standard Base64 format"],
    ["not a PKCS#1 key", Buffer.from("hello").toString("base64"), "not in PKCS#1 format"],
    ["too small", pkcs1(1024), "must be at least RSA 2048"],
    ["of another exponent", pkcs1(2048, 3), "should use the 65537 (0x10001) RSA public exponent"],
  ])("refuses a key %s in GoTrue's words, never showing it", (_, key, words) => {
    const load = () => loadConfig({ GOTRUE_SAML_ENABLED: "true", GOTRUE_SAML_PRIVATE_KEY: key });
    expect(load).toThrow(
      `Invalid configuration: GOTRUE_SAML_PRIVATE_KEY: SAML private key ${words}`,
    );
    if (key) expect(load).not.toThrow(key.slice(0, 20));
  });

  it("refuses a relay state validity that is not a duration", () => {
    expect(() => loadConfig({ GOTRUE_SAML_RELAY_STATE_VALIDITY_PERIOD: "120" })).toThrow(
      /GOTRUE_SAML_RELAY_STATE_VALIDITY_PERIOD must be a duration/,
    );
  });
});

describe("external providers", () => {
  const keycloak = {
    GOTRUE_EXTERNAL_KEYCLOAK_ENABLED: "true",
    GOTRUE_EXTERNAL_KEYCLOAK_CLIENT_ID: "revwise, revwise-mobile",
    GOTRUE_EXTERNAL_KEYCLOAK_SECRET: "kc-secret",
    GOTRUE_EXTERNAL_KEYCLOAK_URL: "https://sso.acme.example/realms/acme/",
  };

  it("turns on each provider with its client, its callback defaulting to this server's", () => {
    const config = loadConfig({ ...keycloak, SITE_URL: "https://revwise.example" });
    expect(config.external).toEqual({
      keycloak: {
        clientIds: ["revwise", "revwise-mobile"],
        secret: "kc-secret",
        redirectUri: "https://revwise.example/auth/v1/callback",
        url: "https://sso.acme.example/realms/acme",
        skipNonceCheck: false,
      },
    });
    expect(loadConfig({}).external).toEqual({});
  });

  it("refuses to start a provider without what it needs, never echoing a secret", () => {
    expect(() => loadConfig({ ...keycloak, GOTRUE_EXTERNAL_KEYCLOAK_URL: undefined })).toThrow(
      "Invalid configuration: GOTRUE_EXTERNAL_KEYCLOAK_ENABLED needs GOTRUE_EXTERNAL_KEYCLOAK_URL",
    );
    expect(() => loadConfig({ GOTRUE_EXTERNAL_GOOGLE_ENABLED: "true" })).toThrow(
      "Invalid configuration: GOTRUE_EXTERNAL_GOOGLE_ENABLED needs GOTRUE_EXTERNAL_GOOGLE_CLIENT_ID and GOTRUE_EXTERNAL_GOOGLE_SECRET",
    );
    // Apple signs in by ID token only: no secret needed.
    expect(
      loadConfig({ GOTRUE_EXTERNAL_APPLE_ENABLED: "true", GOTRUE_EXTERNAL_APPLE_CLIENT_ID: "a" })
        .external.apple?.clientIds,
    ).toEqual(["a"]);
    const bad = () => loadConfig({ GOTRUE_EXTERNAL_GITHUB_SECRET: "line\nbreak-secret" });
    expect(bad).toThrow(ConfigError);
    expect(bad).not.toThrow(/break-secret/);
  });
});

describe("the README's configuration table", () => {
  /** Its rows, each variable with its default as shown (a row may name several: `A` / `B`). */
  function readmeVariables(): Map<string, string> {
    const readme = fs.readFileSync(new URL("../README.md", import.meta.url), "utf8");
    const section = readme.split("\n## Configuration\n")[1]!.split("\n## ")[0]!;
    const shown = new Map<string, string>();
    for (const line of section.split("\n")) {
      // A cell ends at a pipe that is not escaped (`\|` is a pipe inside a cell).
      const cells = line.split(/(?<!\\)\|/).map((c) => c.trim());
      if (cells.length < 4 || !cells[1]!.startsWith("`")) continue;
      const names = cells[1]!
        .split(" / ")
        .map((n) => n.replace(/`/g, ""))
        // A `<PROVIDER>` row stands for each external provider's variable of that name.
        .flatMap((n) =>
          n.includes("<PROVIDER>")
            ? EXTERNAL_PROVIDERS.map((p) => n.replace("<PROVIDER>", p.toUpperCase()))
            : [n],
        );
      const perProvider = cells[1]!.includes("<PROVIDER>");
      const defaults =
        names.length > 1 && !perProvider ? cells[2]!.split(" / ") : names.map(() => cells[2]!);
      expect(defaults, `the defaults of ${cells[1]}`).toHaveLength(names.length);
      names.forEach((name, i) => {
        expect(shown.has(name), `${name} listed twice`).toBe(false);
        shown.set(name, defaults[i]!);
      });
    }
    return shown;
  }

  it("lists exactly the variables the server reads, each with its default", () => {
    const readme = readmeVariables();
    expect([...readme.keys()].sort()).toEqual(Object.keys(VARIABLES).sort());
    for (const name of Object.keys(VARIABLES) as VariableName[])
      expect(readme.get(name), name).toBe(shownDefault(name));
  });

  it("shows a parser's own default as the value it gives an unset variable", () => {
    expect(shownDefault("PORT")).toBe("`3000`");
    expect(loadConfig({}).port).toBe(3000);
    expect(shownDefault("MAILER_AUTOCONFIRM")).toBe("`false`");
    expect(shownDefault("LEAD_WEBHOOK_URL")).toBe("unset");
  });
});
