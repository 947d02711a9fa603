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

  it("turns the dev mailbox off in production and when SMTP is configured", () => {
    expect(loadConfig({ NODE_ENV: "production" }).devMailbox).toBe(false);
    expect(loadConfig({ SMTP_URL: "smtp://127.0.0.1:2525" }).devMailbox).toBe(false);
    expect(loadConfig({ NODE_ENV: "production", DEV_MAILBOX: "true" }).devMailbox).toBe(true);
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
});
