// The signed-in person's account, for the sign-in and account pages: who they are, whether the
// session still needs its second step (a code from an authenticator app), their sessions (our
// `sessions` function), and the words a device and a time are shown in.
import type { AuthError, Session, SupabaseClient, User } from "@supabase/supabase-js";
import { NAME_METADATA_KEY, type AccountSession } from "../../common/accounts.ts";
import { FUNCTIONS } from "../../common/functions.ts";
import { hasSessionToResume, owesSecondFactor } from "./account-signals.ts";
import { readableMessage } from "./errors.ts";
import { getSupabase } from "./supabase.ts";

const SIGN_IN_PAGE = "/auth";
const RESET_PAGE = "/auth/reset-password";

/** The sign-in page, coming back to `path` once signed in. */
export const signInHref = (path: string) => `${SIGN_IN_PAGE}?next=${encodeURIComponent(path)}`;

/** Where an emailed sign-in link leads: the sign-in page, with the page to go back to when there is one. */
export function signInLinkReturn(): string {
  const next = returnPath(window.location.search);
  return next === "/" ? SIGN_IN_PAGE : signInHref(next);
}

/** The page that sets a new password (the recovery's link or code), with the page to go back to. */
export function passwordResetHref(): string {
  const next = returnPath(window.location.search);
  return next === "/" ? RESET_PAGE : `${RESET_PAGE}?next=${encodeURIComponent(next)}`;
}

/** The signed-in user as the server knows them now, or null without a (valid) session. */
export async function currentUser(): Promise<User | null> {
  // Without a stored session or one arriving with a link nobody is signed in: answered at once,
  // without loading the client.
  if (!hasSessionToResume()) return null;
  const supabase = await getSupabase();
  const { data } = await supabase.auth.getSession();
  if (!data.session) return null;
  const { data: fresh, error } = await supabase.auth.getUser();
  return error ? null : fresh.user;
}

/**
 * Where a finished sign-in goes: the page that sent the visitor to /auth (`?next=/team`), when it
 * is a path of this site, else the home page. `next` is read as the browser will read it: the URL
 * parser drops tabs and newlines anywhere and takes `\` for `/`, so `/<tab>/host` or `/\host`
 * name another host; it must start with `/`, resolve to this origin (over http or https), and its
 * path must not itself read as another host (`/..//host` resolves to the path `//host`).
 */
export function returnPath(search: string, origin = window.location.origin): string {
  const next = new URLSearchParams(search).get("next") ?? "";
  if (!next.startsWith("/")) return "/";
  const path = sameOriginPath(next, origin);
  return path !== null && sameOriginPath(path, origin) === path ? path : "/";
}

/** `target`'s path, query and fragment when it resolves to `origin` over http(s), else null. */
function sameOriginPath(target: string, origin: string): string | null {
  let url: URL;
  try {
    url = new URL(target, origin);
  } catch {
    return null;
  }
  if (url.origin !== origin || !/^https?:$/.test(url.protocol)) return null;
  return url.pathname + url.search + url.hash;
}

/** A password or link sign-in of someone with a verified authenticator app counts after its code. */
export async function needsSecondFactor(supabase: SupabaseClient): Promise<boolean> {
  const { data } = await supabase.auth.getSession();
  return owesSecondFactor(data.session);
}

/** The first verified authenticator-app factor of the signed-in user. */
export async function verifiedTotpFactor(supabase: SupabaseClient) {
  const { data } = await supabase.auth.mfa.listFactors();
  return data?.totp.find((f) => f.status === "verified");
}

/**
 * The second step a session is raised with: the first verified authenticator app, else the first
 * verified security key (`securityKey`), or undefined without one.
 */
export type SecondFactor = { id: string; securityKey: boolean };
export async function verifiedSecondFactor(
  supabase: SupabaseClient,
): Promise<SecondFactor | undefined> {
  const { data } = await supabase.auth.mfa.listFactors();
  const app = data?.totp.find((f) => f.status === "verified");
  if (app) return { id: app.id, securityKey: false };
  const key = data?.webauthn.find((f) => f.status === "verified");
  return key && { id: key.id, securityKey: true };
}

/** The second step the session still owes (an aal1 session of someone with one), or null. */
export async function owedSecondFactor(supabase: SupabaseClient): Promise<SecondFactor | null> {
  if (!(await needsSecondFactor(supabase))) return null;
  return (await verifiedSecondFactor(supabase)) ?? null;
}

/** Raises the session with a code from the authenticator app; the error's message, or null. */
export async function verifyTotpCode(factorId: string, code: string): Promise<string | null> {
  const supabase = await getSupabase();
  const { error } = await supabase.auth.mfa.challengeAndVerify({ factorId, code });
  return error ? codeErrorMessage(error) : null;
}

function codeErrorMessage(error: AuthError): string {
  return error.code === "mfa_verification_failed"
    ? "That code didn't match. Check the time on your phone and enter the newest code."
    : readableMessage(error);
}

/**
 * What the code of an account email is for, as GoTrue's /verify names it: a sign-in link's code
 * (`email`: a sign-in, or the confirmation of an address without an account yet), a sign-up's
 * confirmation (`signup`), a password recovery, an email change.
 */
export type EmailCodeType = "email" | "signup" | "recovery" | "email_change";

const WRONG_EMAIL_CODE =
  "That code didn't work. Enter the code from the newest email: each code works once, within the hour.";

/**
 * Uses the code an account email carries beside its link, sent to `email`, as the link would be
 * used: the session it gives (supabase-js stores it), null for the first of an email change's two
 * codes; or the message to show.
 */
export async function verifyEmailCode(
  email: string,
  code: string,
  type: EmailCodeType,
): Promise<{ session: Session | null } | { error: string }> {
  const supabase = await getSupabase();
  const { data, error } = await supabase.auth.verifyOtp({ email: email.trim(), token: code, type });
  if (error && type !== "email_change") {
    // Signed in meanwhile in another tab (the email's link opened there): that session counts.
    const { session } = (await supabase.auth.getSession()).data;
    if (session) return { session };
  }
  if (error)
    return {
      error: error.code === "otp_expired" ? WRONG_EMAIL_CODE : readableMessage(error),
    };
  return { session: data.session };
}

/** A new authenticator-app factor to confirm with its first code: its QR code and setup key. */
export type TotpEnrolment = { factorId: string; qrCode: string; secret: string };

/** A set-up left unfinished (page closed before the first code) is dropped before a new one. */
export async function dropUnverifiedFactors(): Promise<void> {
  const supabase = await getSupabase();
  const { data } = await supabase.auth.mfa.listFactors();
  for (const factor of data?.all ?? [])
    if (factor.status === "unverified") await supabase.auth.mfa.unenroll({ factorId: factor.id });
}

/** Starts setting up an authenticator app (after dropping an unfinished one); throws its error. */
export async function enrolTotp(friendlyName: string): Promise<TotpEnrolment> {
  await dropUnverifiedFactors();
  const supabase = await getSupabase();
  const { data, error } = await supabase.auth.mfa.enroll({ factorType: "totp", friendlyName });
  if (error) throw error;
  return { factorId: data.id, qrCode: qrCodeImageSrc(data.totp.qr_code), secret: data.totp.secret };
}

/**
 * The enrolment's QR code as an image URL. supabase-js hands it over as
 * `data:image/svg+xml;utf-8,<svg…>` with the SVG unescaped, where a `#` (a colour) would end the
 * data and break the image: the SVG is percent-encoded instead.
 */
export function qrCodeImageSrc(qrCode: string): string {
  const svg = qrCode.replace(/^data:image\/svg\+xml;[^,]*,/, "");
  return `data:image/svg+xml;charset=utf-8,${encodeURIComponent(svg)}`;
}

export const nameOf = (user: User): string => {
  const name = (user.user_metadata as Record<string, unknown>)[NAME_METADATA_KEY];
  return typeof name === "string" ? name : "";
};

/** The signed-in user's sessions, newest activity first (GET /functions/v1/sessions). */
export async function listSessions(): Promise<AccountSession[]> {
  const supabase = await getSupabase();
  const { data, error } = await supabase.functions.invoke<{ sessions: AccountSession[] }>(
    FUNCTIONS.sessions,
    { method: "GET" },
  );
  if (error || !data) throw new Error("We couldn't load your sessions. Please reload the page.");
  return data.sessions;
}

/**
 * Ends one of the signed-in user's other sessions (DELETE /functions/v1/sessions/{id}); throws
 * when it could not. One already gone counts as ended.
 */
export async function endSession(id: string): Promise<void> {
  const supabase = await getSupabase();
  const { error } = await supabase.functions.invoke(
    `${FUNCTIONS.sessions}/${encodeURIComponent(id)}`,
    { method: "DELETE" },
  );
  if (!error) return;
  const status = (error as { context?: Response }).context?.status;
  if (status !== 404) throw new Error("We couldn't sign out that device. Please try again.");
}

/** "Chrome on macOS" from a user agent; what is not recognised is said plainly. */
export function describeDevice(userAgent: string | null): string {
  if (!userAgent) return "Unknown device";
  const browser =
    [
      [/Edg\//, "Edge"],
      [/OPR\/|Opera/, "Opera"],
      [/Firefox\//, "Firefox"],
      [/Chrome\/|Chromium\/|CriOS\//, "Chrome"],
      [/Safari\//, "Safari"],
    ].find(([re]) => (re as RegExp).test(userAgent))?.[1] ?? "A browser";
  const system =
    [
      [/iPhone|iPad|iPod/, "iOS"],
      [/Android/, "Android"],
      [/Windows/, "Windows"],
      [/Mac OS X|Macintosh/, "macOS"],
      [/CrOS/, "ChromeOS"],
      [/Linux/, "Linux"],
    ].find(([re]) => (re as RegExp).test(userAgent))?.[1] ?? null;
  return system ? `${String(browser)} on ${String(system)}` : String(browser);
}

/** "Nov 25, 2026, 10:41 PM" in the visitor's own time zone (the browser's, not the build's). */
export function formatDateTime(iso: string): string {
  return new Date(iso).toLocaleString("en-US", {
    month: "short",
    day: "numeric",
    year: "numeric",
    hour: "numeric",
    minute: "2-digit",
  });
}
