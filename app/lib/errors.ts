// What a person reads when a request fails: the server's own message, or, for a request that never
// reached the server (offline, the server down: the browser's "TypeError: Failed to fetch",
// supabase-js's "Failed to fetch" with status 0), a sentence that says so; for a session that
// ended meanwhile, that the person was signed out. The server's refusals that are not meant for
// people (GoTrue's rate limits, a wrong emailed confirmation code) are put in people's words
// here, with how long to wait, so every form says them the same way.

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

/**
 * A failure as the server or the browser gave it: a message, or an error with GoTrue's code and
 * HTTP status (supabase-js's AuthApiError; its headers, and so Retry-After, are not kept).
 */
export type Failure = string | { message: string; code?: string | undefined; status?: number };

const TOO_SOON = /after (\d+) seconds?/i;

/**
 * The seconds to wait the server named in its refusal ("…you can only request this after 42
 * seconds."), or null when it named none.
 */
export function retryAfterSeconds(failure: Failure): number | null {
  const match = TOO_SOON.exec(typeof failure === "string" ? failure : failure.message);
  return match ? Number(match[1]) : null;
}

const isRateLimited = (failure: Failure) =>
  typeof failure !== "string" &&
  (failure.status === 429 || (failure.code?.startsWith("over_") ?? false));

/**
 * Whether an email or text was refused because one went out less than a minute ago: the code it
 * carried still works.
 */
export function sentTooRecently(failure: Failure): boolean {
  return (
    typeof failure !== "string" &&
    (failure.code === "over_email_send_rate_limit" ||
      failure.code === "over_sms_send_rate_limit") &&
    retryAfterSeconds(failure) !== null
  );
}

/** "42 seconds", "1 second", "2 minutes". */
export function waitWords(seconds: number): string {
  // The server rounds the time left down, as GoTrue does: under a second left reads as one.
  if (seconds < 1) return "1 second";
  if (seconds > 90) return `${Math.ceil(seconds / 60)} minutes`;
  return seconds === 1 ? "1 second" : `${seconds} seconds`;
}

function rateLimitWords(failure: Exclude<Failure, string>): string {
  const medium =
    failure.code === "over_email_send_rate_limit"
      ? "email"
      : failure.code === "over_sms_send_rate_limit"
        ? "text message"
        : null;
  const seconds = retryAfterSeconds(failure);
  if (!medium)
    // A request limit that names its wait is a second factor locked after wrong codes.
    return seconds === null
      ? "Too many attempts in a short time. Please wait a minute, then try again."
      : `Too many wrong codes. For your security, you can try again in ${waitWords(seconds)}.`;
  // A repeat within the minute names the seconds left; the hour's budget names none.
  return seconds === null
    ? `We've sent as many ${medium}s as we can for now. Please try again in an hour.`
    : `For your security, we send at most one ${medium} a minute. You can ask for another in ${waitWords(seconds)}.`;
}

/** GoTrue's words that are not meant for people, by error code. */
const PEOPLES_WORDS: Record<string, string> = {
  // A new password from a session that did not just use an emailed link (decision 0045).
  current_password_required:
    "Enter your current password. Forgot it? Use “Forgot password?” on the sign-in page and choose a new one within 10 minutes of opening the link.",
  current_password_mismatch: "That's not your current password.",
  reauthentication_not_valid:
    "That code is wrong or has expired. Check the latest email or ask for a new code.",
};

/** The message to show for a failure: the server's words, or people's words, or the connection's. */
export function readableMessage(failure: Failure): string {
  const message = typeof failure === "string" ? failure : failure.message;
  if (message === SESSION_MISSING) return SESSION_ENDED;
  if (isConnectionFailure(message)) return CONNECTION_FAILED;
  if (typeof failure === "string") return message;
  if (isRateLimited(failure)) return rateLimitWords(failure);
  return (failure.code ? PEOPLES_WORDS[failure.code] : undefined) ?? message;
}

/** The same for anything thrown. */
export function readableError(error: unknown): string {
  return error instanceof Error ? readableMessage(error) : "Something went wrong.";
}
