// The server's configuration: environment variables parsed once at boot. A bad value stops the
// start with a one-line message naming the variable (see server.ts).
import path from "node:path";
import { z } from "zod";
import { DEFAULT_BOOK_DEMO_URL } from "../common/site-build.ts";

const bool = z
  .enum(["true", "false", "1", "0", "yes", "no"])
  .transform((v) => v === "true" || v === "1" || v === "yes");

const urlWithScheme = (schemes: string[]) =>
  z.string().refine(
    (v) => {
      try {
        return schemes.includes(new URL(v).protocol);
      } catch {
        return false;
      }
    },
    `must be a URL starting with ${schemes.map((s) => `${s}//`).join(" or ")}`,
  );

const EnvSchema = z.object({
  NODE_ENV: z.enum(["development", "production", "test"]).default("development"),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().min(1).default("127.0.0.1"),
  SITE_URL: urlWithScheme(["http:", "https:"]).optional(),
  DATA_DIR: z.string().min(1).default("./data"),
  DATABASE_URL: urlWithScheme(["postgres:", "postgresql:"]).optional(),
  REDIS_URL: urlWithScheme(["redis:", "rediss:"]).optional(),
  SMTP_URL: urlWithScheme(["smtp:", "smtps:"]).optional(),
  MAIL_FROM: z.string().min(3).default("Revwise <no-reply@revwise.example>"),
  NOTIFY_EMAIL: z.email().default("sales@revwise.example"),
  JWT_SECRET: z.string().min(32, "must be at least 32 characters").optional(),
  JWT_EXP: z.coerce.number().int().min(60).max(604800).default(3600),
  MAILER_AUTOCONFIRM: bool.default(false),
  RATE_LIMIT_EMAIL_SENT: z.coerce.number().int().min(1).max(1_000_000).default(30),
  DEV_MAILBOX: bool.optional(),
  TRUST_PROXY: bool.default(false),
  LOG_LEVEL: z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("info"),
  SITE_DIR: z.string().min(1).default("./build/client"),
  BOOK_DEMO_URL: urlWithScheme(["http:", "https:"]).optional(),
  VITE_BOOK_DEMO_URL: urlWithScheme(["http:", "https:"]).optional(),
  DEMO_URL: urlWithScheme(["http:", "https:"]).optional(),
});

export type Config = {
  env: "development" | "production" | "test";
  port: number;
  host: string;
  siteUrl: string;
  dataDir: string;
  databaseUrl: string | undefined;
  redisUrl: string | undefined;
  smtpUrl: string | undefined;
  mailFrom: string;
  notifyEmail: string;
  jwtSecret: string | undefined;
  jwtExpSeconds: number;
  mailerAutoconfirm: boolean;
  /** Account emails the service may send per hour, all addresses together (Supabase: 30). */
  authEmailsPerHour: number;
  devMailbox: boolean;
  trustProxy: boolean;
  logLevel: string;
  siteDir: string;
  /** The scheduling page of "Book Demo" (the same as the site's, see VITE_BOOK_DEMO_URL). */
  bookDemoUrl: string;
  /** Where the demo email sends people (the product tour unless DEMO_URL says otherwise). */
  demoUrl: string;
};

export class ConfigError extends Error {
  override name = "ConfigError";
}

/** Parses the environment; throws ConfigError with one line naming the first bad variable. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  // An empty variable (`FOO=` in a .env file) means "not set".
  const present = Object.fromEntries(
    Object.entries(env).filter(([, v]) => v !== undefined && v !== ""),
  );
  const parsed = EnvSchema.safeParse(present);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const name = String(issue.path[0] ?? "environment");
    throw new ConfigError(`Invalid configuration: ${name} ${describe(issue, present[name])}`);
  }
  const e = parsed.data;
  const siteUrl = (e.SITE_URL ?? `http://localhost:${e.PORT}`).replace(/\/+$/, "");
  return {
    env: e.NODE_ENV,
    port: e.PORT,
    host: e.HOST,
    siteUrl,
    dataDir: path.resolve(e.DATA_DIR),
    databaseUrl: e.DATABASE_URL,
    redisUrl: e.REDIS_URL,
    smtpUrl: e.SMTP_URL,
    mailFrom: e.MAIL_FROM,
    notifyEmail: e.NOTIFY_EMAIL,
    jwtSecret: e.JWT_SECRET,
    jwtExpSeconds: e.JWT_EXP,
    mailerAutoconfirm: e.MAILER_AUTOCONFIRM,
    authEmailsPerHour: e.RATE_LIMIT_EMAIL_SENT,
    devMailbox: e.DEV_MAILBOX ?? (e.NODE_ENV !== "production" && !e.SMTP_URL),
    trustProxy: e.TRUST_PROXY,
    logLevel: e.LOG_LEVEL,
    siteDir: path.resolve(e.SITE_DIR),
    bookDemoUrl: e.BOOK_DEMO_URL ?? e.VITE_BOOK_DEMO_URL ?? DEFAULT_BOOK_DEMO_URL,
    demoUrl: e.DEMO_URL ?? `${siteUrl}/product`,
  };
}

function describe(issue: z.core.$ZodIssue, value: string | undefined): string {
  const shown =
    value === undefined ? "" : ` (got "${value.length > 40 ? `${value.slice(0, 40)}…` : value}")`;
  // Never echo a secret back into a log.
  const safe =
    issue.path[0] === "JWT_SECRET" || /pass|secret|:\/\/[^@]*@/i.test(value ?? "") ? "" : shown;
  return `${issue.message.replace(/^Invalid input: /, "")}${safe}`;
}
