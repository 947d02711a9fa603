// Helpers for account tests: read links and codes out of the emails the server sent.
import type { ParsedMail } from "mailparser";
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

/**
 * The email's link as the site's page for it opens it (/auth/confirm?token_hash=…&type=…), or
 * GoTrue's /verify link where the email leads elsewhere.
 */
export function pageLinkIn(mail: ParsedMail): string {
  return pageLinkInText(mail.text ?? "", mail.subject);
}

function pageLinkInText(text: string, subject?: string): string {
  const url = /https?:\/\/\S+\/auth\/(?:confirm|v1\/verify)\?\S+/.exec(text)?.[0];
  if (!url) throw new Error(`no verification link in "${subject}"`);
  return url;
}

/**
 * The email's link as GoTrue's GET /verify link: what the site's page does on its reader's press
 * (supabase-js verifyOtp with the token hash) is what /verify does with the same token, so the
 * server's tests use the protocol's link, and the browser tests the page (pageLinkIn).
 */
export function linkIn(mail: ParsedMail): string {
  return verifyLinkInText(mail.text ?? "", mail.subject);
}

/** linkIn for an email's plain text (as the outbox stores it). */
export function verifyLinkInText(text: string, subject?: string): string {
  const url = new URL(pageLinkInText(text, subject));
  if (url.pathname.endsWith("/verify")) return url.toString();
  const verify = new URL("/auth/v1/verify", url.origin);
  verify.searchParams.set("token", url.searchParams.get("token_hash") ?? "");
  verify.searchParams.set("type", url.searchParams.get("type") ?? "");
  verify.searchParams.set("redirect_to", url.searchParams.get("redirect_to") ?? "");
  return verify.toString();
}

export function codeIn(mail: ParsedMail): string {
  const code = /enter this code[^:\n]*: (\d{6})/.exec(mail.text ?? "")?.[1];
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

/** A phone number in E.164 digits (no "+"), different for every call of a run. */
export const uniquePhone = () =>
  `1555${String((Date.now() * 100 + ++n) % 10_000_000_000).padStart(10, "0")}`;
