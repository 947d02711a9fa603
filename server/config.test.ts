import path from "node:path";
import { describe, expect, it } from "vitest";
import { ConfigError, loadConfig } from "./config.ts";

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
});
