// Helpers for account tests: read links and codes out of the emails the server sent, and the auth
// suites' requests and accounts over one test server.
import type { ParsedMail } from "mailparser";
import { expect } from "vitest";
import type { Database } from "../../server/db/database.ts";
import { uniqueIp, type ApiServer } from "./api-server.ts";
import { addressOf, type TestSmtp } from "./smtp.ts";

export async function emailTo(
  smtp: TestSmtp,
  to: string,
  subject: string | RegExp,
): Promise<ParsedMail> {
  return smtp.waitFor(
    (m) =>
      addressOf(m) === to &&
      (typeof subject === "string" ? m.subject === subject : subject.test(m.subject ?? "")),
  );
}

export function linkIn(mail: ParsedMail): string {
  const url = /https?:\/\/\S+\/auth\/v1\/verify\?\S+/.exec(mail.text ?? "")?.[0];
  if (!url) throw new Error(`no verification link in "${mail.subject}"`);
  return url;
}

export function codeIn(mail: ParsedMail): string {
  const code = /enter this code: (\d{6})/.exec(mail.text ?? "")?.[1];
  if (!code) throw new Error(`no code in "${mail.subject}"`);
  return code;
}

/** Follows an email link like a browser would, without following the redirect. */
export async function followLink(
  url: string,
): Promise<{ status: number; location: URL; fragment: URLSearchParams }> {
  const res = await fetch(url, { redirect: "manual" });
  const location = new URL(res.headers.get("location") ?? "about:blank");
  return { status: res.status, location, fragment: new URLSearchParams(location.hash.slice(1)) };
}

let n = 0;
export const uniqueEmail = (label = "user") =>
  `${label}-${Date.now().toString(36)}-${++n}@example.com`;
export const PASSWORD = "Correct-Horse-42";

/**
 * What the auth suites do over their test server: a supabase-js client from a fresh client
 * address, a raw /auth/v1 request as auth-js sends it, a confirmed account, the two emails of an
 * email change, a count from the database.
 */
export function authHelpers(server: ApiServer, smtp: TestSmtp, db: () => Database) {
  const client = () => server.client({ ip: uniqueIp() });
  const auth = (path: string, init: RequestInit & { headers?: Record<string, string> } = {}) =>
    fetch(`${server.url}/auth/v1${path}`, {
      ...init,
      headers: {
        apikey: server.anonKey,
        "content-type": "application/json",
        "x-forwarded-for": uniqueIp(),
        "x-supabase-api-version": "2024-01-01",
        ...init.headers,
      },
    });

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

  return { client, auth, confirmedUser, emailChangeMails, count };
}
