// The real supabase-js client, created on first use (its code is not part of the first load).
// Same origin as the page; the anon key comes from the page (the server fills it in).
import type { SupabaseClient } from "@supabase/supabase-js";
import { emailLinkResult } from "./account-signals.ts";

let client: Promise<SupabaseClient> | undefined;

/** The anon key the page carries (the server fills it in), sent as every request's `apikey`. */
export function anonKey(): string {
  const key = document.querySelector<HTMLMetaElement>('meta[name="revwise-anon-key"]')?.content;
  if (!key) throw new Error("The page carries no anon key");
  return key;
}

/** The client; when its code cannot load (the network is down), the next call loads again. */
export function getSupabase(): Promise<SupabaseClient> {
  // What the address brought is read before the client (or keepSessionFromFragment) clears it.
  emailLinkResult();
  client ??= import("@supabase/supabase-js").then(
    async ({ createClient }) =>
      keepSessionFromFragment(
        createClient(window.location.origin, anonKey(), {
          // PKCE: an emailed link that reaches /auth/v1/verify redirects with a code, which only
          // this browser (holding the verifier) exchanges for a session, never with the session.
          auth: {
            flowType: "pkce",
            persistSession: true,
            autoRefreshToken: true,
            detectSessionInUrl: true,
          },
          global: { fetch: watchedFetch },
        }),
      ),
    (error: unknown) => {
      client = undefined;
      throw error;
    },
  );
  return client;
}

/**
 * A sign-in with a provider started by a plain link (the sign-in page's buttons work without the
 * page's script) comes back with its session in the fragment (GoTrue's implicit flow), which this
 * PKCE client does not take up itself: it is kept, and the fragment cleared from the address bar.
 */
async function keepSessionFromFragment(supabase: SupabaseClient): Promise<SupabaseClient> {
  const fragment = new URLSearchParams(window.location.hash.slice(1));
  const access_token = fragment.get("access_token");
  const refresh_token = fragment.get("refresh_token");
  if (access_token && refresh_token) {
    history.replaceState(null, "", window.location.pathname + window.location.search);
    await supabase.auth.setSession({ access_token, refresh_token });
  }
  return supabase;
}

const ACCESS_REFUSED = "revwise:access-refused";

/**
 * fetch, telling the page when the server refuses a data request (401 or 403 from /rest/v1 or
 * /functions/v1): the session may have been revoked elsewhere (a global sign-out), and the pages
 * for signed-in people then check who is signed in again (lib/session-watch.ts). An answer of
 * /auth/v1 that says the session itself is gone ends it on this page (see endIfSessionGone).
 */
export const watchedFetch: typeof fetch = async (input, init) => {
  const response = await fetch(input, init);
  const path = new URL(input instanceof Request ? input.url : input, window.location.href).pathname;
  const refused = response.status === 401 || response.status === 403;
  if (refused && /^\/(rest|functions)\/v1\//.test(path))
    window.dispatchEvent(new Event(ACCESS_REFUSED));
  if ((refused || response.status === 400) && path.startsWith("/auth/v1/"))
    void endIfSessionGone(response.clone(), credentialsOf(input, init));
  return response;
};

/**
 * What a request to /auth/v1 presented as the session: its bearer token (the access token, or the
 * API key when it had none) and a refresh token in its JSON body.
 */
function credentialsOf(input: RequestInfo | URL, init?: RequestInit): string[] {
  const headers = new Headers(init?.headers ?? (input instanceof Request ? input.headers : {}));
  const bearer = /^Bearer (.+)$/i.exec(headers.get("authorization") ?? "")?.[1];
  let refreshToken: unknown;
  if (typeof init?.body === "string")
    try {
      refreshToken = (JSON.parse(init.body) as { refresh_token?: unknown } | null)?.refresh_token;
    } catch {
      // Not JSON: no refresh token in it.
    }
  return [bearer, refreshToken].filter((c): c is string => typeof c === "string");
}

/**
 * GoTrue's codes for a session that no longer exists: signed out on another device (a global or
 * "others" sign-out), its user deleted, its refresh token revoked or used twice (reuse detection
 * revokes the lot).
 */
const SESSION_GONE = new Set([
  "session_not_found",
  "user_not_found",
  "refresh_token_not_found",
  "refresh_token_already_used",
]);

let ending: Promise<unknown> | undefined;

/**
 * When the answer says the session the request presented is gone, and it is still the one this
 * page holds (a late answer about an earlier session never ends a newer one), the page signs out
 * locally: supabase-js keeps its stored session after such an answer to a request (PUT /user) or
 * to a refresh made while the access token still works, and the page would go on showing the
 * account with every action failing. The local sign-out fires SIGNED_OUT, which the header and
 * the pages for signed-in people follow (lib/session.ts, lib/session-watch.ts). Its own /logout
 * request, refused the same way, joins the sign-out under way. A token the server no longer takes
 * (`bad_jwt`: expired by the server's clock before the device's, or signed with a retired key) is
 * refreshed instead; a refused refresh then ends the session as above.
 */
async function endIfSessionGone(response: Response, presented: string[]): Promise<void> {
  // GoTrue names the code in `code` (API version 2024-01-01), or in `error_code` beside a numeric
  // `code` (before).
  const body = (await response.json().catch(() => null)) as {
    code?: unknown;
    error_code?: unknown;
  } | null;
  const code = typeof body?.error_code === "string" ? body.error_code : body?.code;
  if (typeof code !== "string" || !client) return;
  if (code !== "bad_jwt" && !SESSION_GONE.has(code)) return;
  const supabase = await client;
  const held = (await supabase.auth.getSession()).data.session;
  if (!held || !presented.some((c) => c === held.access_token || c === held.refresh_token)) return;
  ending ??= (
    code === "bad_jwt" ? supabase.auth.refreshSession() : supabase.auth.signOut({ scope: "local" })
  )
    .catch(() => {})
    .finally(() => (ending = undefined));
}

/** Calls `listener` at each refused data request; returns the way to stop. */
export function onAccessRefused(listener: () => void): () => void {
  window.addEventListener(ACCESS_REFUSED, listener);
  return () => window.removeEventListener(ACCESS_REFUSED, listener);
}
