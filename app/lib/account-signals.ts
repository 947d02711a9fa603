// Whether this page load has account state to show, and whether there is a session to resume: the
// one place that reads it, for the islands runtime (before it loads anything), the header's
// account island and the reset-password form. A session is stored by an earlier visit, or arrives
// with an email link (GoTrue puts the session, or the link's error, in the URL). Without any of
// these the visitor is anonymous and the prerendered page (Request Access) is already right.
// No React, no client.
import { sessionStorageKey } from "./supabase.ts";

export type EmailLinkResult = {
  /** The link carries a session: tokens in the fragment, or a code to exchange for them. */
  session: boolean;
  /** What the link was for (`signup`, `recovery`, `email_change`, …), when it says. */
  type: string | null;
  /** Why the link failed (expired, already used). */
  error: string | null;
  /** A notice instead of a session (an email change waits for the other address's link too). */
  message: string | null;
};

export function emailLinkResult(): EmailLinkResult {
  const hash = new URLSearchParams(window.location.hash.slice(1));
  return {
    session: hash.has("access_token") || new URLSearchParams(window.location.search).has("code"),
    type: hash.get("type"),
    error: hash.get("error_description"),
    message: hash.get("message"),
  };
}

/** A session stored by an earlier visit (read before anything loads, to show the right button). */
export function hasStoredSession(): boolean {
  try {
    return localStorage.getItem(sessionStorageKey()) !== null;
  } catch {
    return false;
  }
}

/** A session supabase-js will pick up when it loads: stored, or arriving with an email link. */
export function hasSessionToResume(): boolean {
  return emailLinkResult().session || hasStoredSession();
}

/** A session to resume, or an email link's outcome to report. */
export function hasAccountState(): boolean {
  const link = emailLinkResult();
  return hasSessionToResume() || link.error !== null || link.message !== null;
}

/**
 * Which account button the page shows, on the <html> element (`data-account`), read by CSS so the
 * right one is there before the header's code runs: set from the stored session as the page's
 * script starts, and from the session's real state once it is known.
 */
export function showAccountState(state: "signed-in" | "anonymous"): void {
  if (state === "signed-in") document.documentElement.dataset.account = state;
  else delete document.documentElement.dataset.account;
}
