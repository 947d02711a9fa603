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
      }),
    (error: unknown) => {
      client = undefined;
      throw error;
    },
  );
  return client;
}

/** The key supabase-js stores the session under (sb-<first label of the host>-auth-token). */
export function sessionStorageKey(): string {
  return `sb-${window.location.hostname.split(".")[0]}-auth-token`;
}
