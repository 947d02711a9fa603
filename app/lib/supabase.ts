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
 * for signed-in people then check who is signed in again (lib/session-watch.ts).
 */
const watchedFetch: typeof fetch = async (input, init) => {
  const response = await fetch(input, init);
  const path = new URL(input instanceof Request ? input.url : input, window.location.href).pathname;
  if (
    (response.status === 401 || response.status === 403) &&
    /^\/(rest|functions)\/v1\//.test(path)
  )
    window.dispatchEvent(new Event(ACCESS_REFUSED));
  return response;
};

/** Calls `listener` at each refused data request; returns the way to stop. */
export function onAccessRefused(listener: () => void): () => void {
  window.addEventListener(ACCESS_REFUSED, listener);
  return () => window.removeEventListener(ACCESS_REFUSED, listener);
}

/** The key supabase-js stores the session under (sb-<first label of the host>-auth-token). */
export function sessionStorageKey(): string {
  return `sb-${window.location.hostname.split(".")[0]}-auth-token`;
}
