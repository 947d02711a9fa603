// Whether this page load has account state to show: a session stored by an earlier visit, or the
// result of an email link in the URL (a session, a code, or an error). Without either the visitor
// is anonymous and the prerendered page (Request Access) is already right. No React, no client:
// the islands runtime asks this before it loads anything.
import { sessionStorageKey } from "./supabase.ts";

export function hasStoredSession(): boolean {
  try {
    return localStorage.getItem(sessionStorageKey()) !== null;
  } catch {
    return false;
  }
}

/** The fragment of an email link's redirect (GoTrue puts the session or the error there). */
export function hashParams(): URLSearchParams {
  return new URLSearchParams(window.location.hash.slice(1));
}

export function authResultInUrl(): boolean {
  const hash = hashParams();
  return (
    hash.has("access_token") ||
    hash.has("error_description") ||
    hash.has("message") ||
    new URLSearchParams(window.location.search).has("code")
  );
}

export function hasAccountState(): boolean {
  return hasStoredSession() || authResultInUrl();
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
