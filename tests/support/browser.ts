// Real headless Chromium (the Debian package) driven by playwright-core, against the built site
// served by the real server. Unexpected console errors fail the test that caused them.
import fs from "node:fs";
import path from "node:path";
import {
  chromium,
  type Browser,
  type BrowserContext,
  type ConsoleMessage,
  type Locator,
  type Page,
} from "playwright-core";
import { afterAll, afterEach, beforeAll, describe, expect } from "vitest";
import { buildApp } from "../../server/app.ts";
import type { Database } from "../../server/db/database.ts";
import { loadConfig } from "../../server/config.ts";
import { missing } from "./requirements.ts";
import { tempDir, TEST_JWT_SECRET } from "./app.ts";
import { freePort } from "./ports.ts";

export const CHROMIUM = ["/usr/bin/chromium", "/usr/bin/chromium-browser"].find((p) =>
  fs.existsSync(p),
);
export const CHROMIUM_ARGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-background-networking",
  "--disable-component-update",
  "--no-first-run",
  "--disable-sync",
];
const SITE_DIR = path.resolve("build/client");
const built = fs.existsSync(path.join(SITE_DIR, "index.html"));

if (!CHROMIUM) missing("Chromium", "apt-get install -y chromium");
if (!built)
  missing("the built site (build/client)", "run `npm run build` (npm test does it first)");

export type BrowserContextInfo = {
  readonly browser: Browser;
  readonly baseUrl: string;
  /** The server's database, to check what a form stored. */
  readonly db: Database;
  /** A fresh context (cookies, storage) and page; console errors are collected for the test. */
  newPage(opts?: {
    width?: number;
    height?: number;
    mobile?: boolean;
    javaScriptEnabled?: boolean;
  }): Promise<Page>;
  /** Console errors the test expects (e.g. the 404 status of a not-found document). */
  allowConsoleError(pattern: RegExp): void;
};

export type SiteServerOptions = {
  /** Extra environment for the server; a function runs first (e.g. to start an SMTP peer). */
  env?: Record<string, string> | (() => Promise<Record<string, string>>);
  teardown?: () => Promise<void>;
  /**
   * The host name of the site's URL (it listens on loopback either way): `localhost` where a
   * test needs a domain, as WebAuthn does (no relying party is an IP address).
   */
  host?: "127.0.0.1" | "localhost";
};

/** describe() with a running server (real app, built site, fresh PGlite) and a browser. */
export function describeInBrowser(
  name: string,
  fn: (ctx: BrowserContextInfo) => void,
  opts: SiteServerOptions = {},
) {
  describe.skipIf(!CHROMIUM || !built)(name, () => {
    let browser: Browser | undefined;
    let db: Database | undefined;
    let close: (() => Promise<void>) | undefined;
    let baseUrl = "";
    const contexts: BrowserContext[] = [];
    let errors: string[] = [];
    let allowed: RegExp[] = [];

    beforeAll(async () => {
      const extraEnv = typeof opts.env === "function" ? await opts.env() : opts.env;
      const dataDir = tempDir();
      const port = await freePort();
      baseUrl = `http://${opts.host ?? "127.0.0.1"}:${port}`;
      const config = loadConfig({
        NODE_ENV: "test",
        LOG_LEVEL: "silent",
        DATA_DIR: dataDir,
        JWT_SECRET: TEST_JWT_SECRET,
        SITE_DIR,
        PORT: String(port),
        SITE_URL: baseUrl,
        ...extraEnv,
      });
      const app = await buildApp({ config });
      db = app.db;
      await app.listen({ port, host: "127.0.0.1" });
      close = () => app.close();
      browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
    });

    afterEach(async () => {
      const unexpected = errors.filter((e) => !allowed.some((re) => re.test(e)));
      errors = [];
      allowed = [];
      await Promise.all(contexts.splice(0).map((c) => c.close()));
      expect(unexpected, "console errors").toEqual([]);
    });

    afterAll(async () => {
      await browser?.close();
      await close?.();
      await opts.teardown?.();
    });

    fn({
      get browser() {
        return browser!;
      },
      get baseUrl() {
        return baseUrl;
      },
      get db() {
        return db!;
      },
      async newPage({ width = 1280, height = 900, mobile = false, javaScriptEnabled = true } = {}) {
        const context = await browser!.newContext({
          viewport: { width, height },
          isMobile: mobile,
          hasTouch: mobile,
          javaScriptEnabled,
          baseURL: baseUrl,
        });
        contexts.push(context);
        // A Content-Security-Policy violation is an error even when the page's code survives it.
        await context.addInitScript(
          "document.addEventListener('securitypolicyviolation', (e) => console.error('CSP violation: ' + e.violatedDirective + ' ' + e.blockedURI + ' ' + e.sourceFile))",
        );
        const page = await context.newPage();
        page.on("console", (msg: ConsoleMessage) => {
          if (msg.type() === "error") errors.push(`${page.url()}: ${msg.text()}`);
        });
        page.on("pageerror", (err) => errors.push(`${page.url()}: uncaught ${err.message}`));
        return page;
      },
      allowConsoleError(pattern: RegExp) {
        allowed.push(pattern);
      },
    });
  });
}

/** Waits for a control to become enabled or disabled: React applies state a moment after the event behind it. */
export async function becomes(control: Locator, state: "enabled" | "disabled"): Promise<void> {
  const handle = await control.elementHandle();
  if (!handle) throw new Error("no such control");
  await handle.waitForElementState(state);
}
