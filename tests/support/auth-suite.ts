// The auth suites: each runs over one test server, with the requests, accounts and emails its
// tests need; on the embedded engine, or on both for what can differ between them (databases.ts).
import { expect } from "vitest";
import type { Database } from "../../server/db/database.ts";
import { uniqueIp, type ApiServer } from "./api-server.ts";
import { emailTo, followLink, linkIn, PASSWORD, uniqueEmail } from "./auth.ts";
import { describeEachDatabase, describeWithDatabase, type DatabaseContext } from "./databases.ts";
import type { TestSmtp } from "./smtp.ts";
import { useTestServer } from "./test-server.ts";

/**
 * What the auth suites do over their test server: a supabase-js client from a fresh client
 * address, a raw /auth/v1 request as auth-js sends it, the emails it sent, a confirmed account,
 * the two emails of an email change, a count from the database.
 */
export function authHelpers(server: ApiServer, smtp: TestSmtp, db: () => Database) {
  const client = () => server.client({ ip: uniqueIp() });
  const auth = (path: string, init: RequestInit & { headers?: Record<string, string> } = {}) =>
    server.fetch(`${server.url}/auth/v1${path}`, {
      ...init,
      headers: {
        apikey: server.anonKey,
        "content-type": "application/json",
        "x-forwarded-for": uniqueIp(),
        "x-supabase-api-version": "2024-01-01",
        ...init.headers,
      },
    });

  /** The first email (already received or arriving) to this address with this subject. */
  const emailToAddress = (to: string, subject: string | RegExp) => emailTo(smtp, to, subject);

  /** A confirmed account, signed in on a fresh client. */
  async function confirmedUser(label = "user", email = uniqueEmail(label)) {
    const supabase = client();
    await supabase.auth.signUp({ email, password: PASSWORD });
    const { fragment } = await followLink(
      linkIn(await emailTo(smtp, email, "Confirm your Revwise account")),
    );
    expect(fragment.get("access_token")).toBeTruthy();
    const { data, error } = await supabase.auth.signInWithPassword({ email, password: PASSWORD });
    expect(error).toBeNull();
    return { email, supabase, session: data.session! };
  }

  /** The two emails an email change sends: to the new address and to the current one. */
  async function emailChangeMails(current: string, next: string) {
    return {
      toNew: await emailTo(smtp, next, "Confirm your new Revwise email address"),
      toCurrent: await emailTo(smtp, current, "Confirm the change of your Revwise email address"),
    };
  }

  const count = async (sql: string, params: unknown[]) =>
    (await db().query<{ n: number }>(sql, params))[0]!.n;

  return { client, auth, emailTo: emailToAddress, confirmedUser, emailChangeMails, count };
}

export type AuthSuite = { ctx: DatabaseContext; server: ApiServer; smtp: TestSmtp } & ReturnType<
  typeof authHelpers
>;

function authSuite(
  ctx: DatabaseContext,
  fn: (suite: AuthSuite) => void,
  env: Record<string, string>,
) {
  const { server, smtp } = useTestServer(() => ctx.db, {
    env: { RATE_LIMIT_EMAIL_SENT: "100000", RATE_LIMIT_LEAD_EMAIL_SENT: "100000", ...env },
  });
  fn({ ctx, server, smtp, ...authHelpers(server, smtp, () => ctx.db) });
}

/**
 * An auth suite on the embedded engine, over one test server (email budget out of the way), with
 * the server's environment extended by `env`.
 */
export function describeAuthSuite(
  name: string,
  fn: (suite: AuthSuite) => void,
  env: Record<string, string> = {},
) {
  describeWithDatabase(name, (ctx) => authSuite(ctx, fn, env));
}

/**
 * An auth suite on each database engine, for what can differ between them (concurrent requests
 * that only the database's locks keep apart, counts kept in the database across instances): only
 * in the files server/db/engines.test.ts lists.
 */
export function describeAuthSuiteEachDatabase(
  name: string,
  fn: (suite: AuthSuite) => void,
  env: Record<string, string> = {},
) {
  describeEachDatabase(name, (ctx) => authSuite(ctx, fn, env));
}
