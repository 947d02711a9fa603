// The real supabase-js client, created on first use (its code is not part of the first load).
// Same origin as the page; the anon key comes from the page (the server fills it in).
import type { SupabaseClient } from "@supabase/supabase-js";

let client: Promise<SupabaseClient> | undefined;

export function anonKey(): string {
  const key = document.querySelector<HTMLMetaElement>('meta[name="revwise-anon-key"]')?.content;
  if (!key) throw new Error("The page carries no anon key");
  return key;
}

/** The client; when its code cannot load (the network is down), the next call loads again. */
export function getSupabase(): Promise<SupabaseClient> {
  client ??= import("@supabase/supabase-js").then(
    ({ createClient }) =>
      createClient(window.location.origin, anonKey(), {
        auth: { persistSession: true, autoRefreshToken: true, detectSessionInUrl: true },
        global: { fetch: watchedFetch },
      }),
    (error: unknown) => {
      client = undefined;
      throw error;
    },
  );
  return client;
}

const ACCESS_REFUSED = "revwise:access-refused";

/**
 * fetch, telling the page when the server refuses a data request (401 or 403 from /rest/v1 or
 * /functions/v1): the session may have been revoked elsewhere (a global sign-out), and the pages
 * for signed-in people then check who is signed in again (lib/session-watch.ts). An answer of
 * /auth/v1 that says the session itself is gone ends it on this page (see endIfSessionGone).
 */
const watchedFetch: typeof fetch = async (input, init) => {
  const response = await fetch(input, init);
  const path = new URL(input instanceof Request ? input.url : input, window.location.href).pathname;
  const refused = response.status === 401 || response.status === 403;
  if (refused && /^\/(rest|functions)\/v1\//.test(path))
    window.dispatchEvent(new Event(ACCESS_REFUSED));
  if ((refused || response.status === 400) && path.startsWith("/auth/v1/"))
    void endIfSessionGone(response.clone());
  return response;
};

/**
 * GoTrue's codes for a session that no longer exists: signed out on another device (a global or
 * "others" sign-out), its user deleted, its token unusable (expired past refreshing, or signed
 * with another key), its refresh token revoked or used twice (reuse detection revokes the lot).
 */
const SESSION_GONE = new Set([
  "session_not_found",
  "user_not_found",
  "bad_jwt",
  "refresh_token_not_found",
  "refresh_token_already_used",
]);

let ending: Promise<unknown> | undefined;

/**
 * When the answer says the session is gone, the page signs out locally: supabase-js keeps its
 * stored session after such an answer to a request (PUT /user) or to a refresh made while the
 * access token still works, and the page would go on showing the account with every action
 * failing. The local sign-out fires SIGNED_OUT, which the header and the pages for signed-in
 * people follow (lib/session.ts, lib/session-watch.ts). Its own /logout request, refused the same
 * way, joins the sign-out under way.
 */
async function endIfSessionGone(response: Response): Promise<void> {
  // GoTrue names the code in `code` (API version 2024-01-01), or in `error_code` beside a numeric
  // `code` (before).
  const body = (await response.json().catch(() => null)) as {
    code?: unknown;
    error_code?: unknown;
  } | null;
  const code = typeof body?.error_code === "string" ? body.error_code : body?.code;
  if (typeof code !== "string" || !SESSION_GONE.has(code) || !client) return;
  ending ??= client
    .then((supabase) => supabase.auth.signOut({ scope: "local" }))
    .catch(() => {})
    .finally(() => (ending = undefined));
}

/** Calls `listener` at each refused data request; returns the way to stop. */
export function onAccessRefused(listener: () => void): () => void {
  window.addEventListener(ACCESS_REFUSED, listener);
  return () => window.removeEventListener(ACCESS_REFUSED, listener);
}

/** The key supabase-js stores the session under (sb-<first label of the host>-auth-token). */
export function sessionStorageKey(): string {
  return `sb-${window.location.hostname.split(".")[0]}-auth-token`;
}
