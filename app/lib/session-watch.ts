// The pages for signed-in people (the team workspace, the account page) follow their session
// while they are open: a sign-out (Logout in another tab, a refresh the server refused, an answer
// saying the session is gone: lib/supabase.ts) drops what they show at once, and a data request
// the server refused (the session revoked elsewhere, by a global sign-out) makes them check who is
// signed in again.
import { useEffect, useEffectEvent } from "react";
import { getSupabase, onAccessRefused } from "./supabase.ts";

export function useSessionWatch({
  active,
  signedOut,
  recheck,
}: {
  /** Whether there is a session to watch (without one, supabase-js is not loaded for this). */
  active: boolean;
  /** The session ended: show what a visitor without one sees. */
  signedOut: () => void;
  /** The server refused a request: read the session again. */
  recheck: () => void;
}): void {
  const onSignedOut = useEffectEvent(signedOut);
  const onRefused = useEffectEvent(recheck);
  useEffect(() => {
    if (!active) return;
    let live = true;
    let unsubscribe = () => {};
    void getSupabase().then((supabase) => {
      if (!live) return;
      const { data } = supabase.auth.onAuthStateChange((event) => {
        if (event === "SIGNED_OUT") onSignedOut();
      });
      unsubscribe = () => data.subscription.unsubscribe();
    });
    const stopRefused = onAccessRefused(() => onRefused());
    return () => {
      live = false;
      unsubscribe();
      stopRefused();
    };
  }, [active]);
}
