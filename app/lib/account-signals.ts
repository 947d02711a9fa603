// Whether this page load has account state to show, and whether there is a session to resume: the
// one place that reads it, for the islands runtime (before it loads anything), the header's
// account island and the reset-password form. A session is stored by an earlier visit, or arrives
// with an email link (GoTrue puts the session, or the link's error, in the URL). Without any of
// these the visitor is anonymous and the prerendered page (Request Access) is already right. A
// session that still owes its authenticator app's code is not signed in yet (`owesSecondFactor`).
// No React, no client.

type EmailLinkResult = {
  /** The link carries a session: tokens in the fragment, or a code to exchange for them. */
  session: boolean;
  /** What the link was for (`signup`, `recovery`, `email_change`, …), when it says. */
  type: string | null;
  /** Why the link failed (expired, already used). */
  error: string | null;
  /** A notice instead of a session (an email change waits for the other address's link too). */
  message: string | null;
};

let arrival: EmailLinkResult | undefined;

/**
 * What the address brought as the page loaded, read once: the client takes the session out of the
 * address before it has stored it (it confirms the tokens with the server first), and the page
 * clears a failed link's error once said, while an island that wakes meanwhile still needs to know
 * that a session is on its way (lib/supabase.ts reads this before it clears anything).
 */
export function emailLinkResult(): EmailLinkResult {
  arrival ??= readAddress();
  return arrival;
}

function readAddress(): EmailLinkResult {
  const hash = new URLSearchParams(window.location.hash.slice(1));
  return {
    session: hash.has("access_token") || new URLSearchParams(window.location.search).has("code"),
    type: hash.get("type"),
    error: hash.get("error_description"),
    message: hash.get("message"),
  };
}

/** The localStorage key supabase-js stores the session under (sb-<first label of the host>-auth-token). */
export function sessionLocalStorageKey(): string {
  return `sb-${window.location.hostname.split(".")[0]}-auth-token`;
}

/** What of a session says whether it counts: supabase-js's `Session`, or the JSON it stores. */
type SessionFacts = { access_token: string; user?: { factors?: { status: string }[] } };

/** The session stored by an earlier visit (read before anything loads, to show the right button). */
export function storedSession(): SessionFacts | null {
  try {
    const stored = localStorage.getItem(sessionLocalStorageKey());
    return stored === null ? null : (JSON.parse(stored) as SessionFacts);
  } catch {
    return null;
  }
}

/** Whether an earlier visit stored a session, whatever it counts for (resumed all the same). */
function hasStoredSession(): boolean {
  return storedSession() !== null;
}

/**
 * Whether a session still owes the code of an authenticator app: a password or link sign-in (aal1)
 * of an account with a verified app. It counts once the code raised it (aal2): until then the
 * header shows what a visitor without a session sees, and the account page sends it to the code
 * step. Read as supabase-js's getAuthenticatorAssuranceLevel reads it: the user's verified
 * factors, the level in the access token.
 */
export function owesSecondFactor(session: SessionFacts | null): boolean {
  if (!session?.user?.factors?.some((factor) => factor.status === "verified")) return false;
  return tokenLevel(session.access_token) !== "aal2";
}

/** The `aal` claim of an access token (a JWT; its payload is base64url JSON). */
function tokenLevel(accessToken: string): unknown {
  try {
    const payload = (accessToken.split(".")[1] ?? "").replace(/-/g, "+").replace(/_/g, "/");
    return (JSON.parse(atob(payload)) as { aal?: unknown }).aal;
  } catch {
    return undefined;
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
 * script starts, and from the session's real state once it is known. Logout for a session that
 * counts; Request Access without one, or while it owes its code.
 */
export function showAccountState(session: SessionFacts | null): void {
  if (session && !owesSecondFactor(session)) document.documentElement.dataset.account = "signed-in";
  else delete document.documentElement.dataset.account;
}
