// What a person reads when a request fails: the server's own message, or, for a request that never
// reached the server (offline, the server down: the browser's "TypeError: Failed to fetch",
// supabase-js's "Failed to fetch" with status 0), a sentence that says so; for a session that
// ended meanwhile, that the person was signed out.

export const CONNECTION_FAILED =
  "The connection to Revwise failed. Check your internet connection and try again.";

/**
 * supabase-js's words when the session it holds is gone (signed out on another device: the
 * server's 403 session_not_found) or it holds none; the page then shows the sign-in prompt.
 */
const SESSION_MISSING = "Auth session missing!";
export const SESSION_ENDED = "You've been signed out. Sign in again to continue.";

/** The browsers' words for a fetch that got no answer (Chromium, Firefox, Safari, Node). */
const NO_ANSWER = /failed to fetch|networkerror|load failed|fetch failed|network request failed/i;

/** Whether a message is a browser's "no answer" rather than the server's. */
export const isConnectionFailure = (message: string) => NO_ANSWER.test(message);

/** The message to show for a failure: the server's words, or the connection's. */
export function readableMessage(message: string): string {
  if (message === SESSION_MISSING) return SESSION_ENDED;
  return isConnectionFailure(message) ? CONNECTION_FAILED : message;
}

/** The same for anything thrown. */
export function readableError(error: unknown): string {
  return error instanceof Error ? readableMessage(error.message) : "Something went wrong.";
}
