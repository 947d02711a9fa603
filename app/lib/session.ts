// The visitor's account state for the islands that show it (header: Logout or Request Access).
// supabase-js loads only when there is a session to keep alive: one stored by an earlier visit,
// or one arriving in the URL from an email link. Its auth events decide which button shows.
import { hashParams, hasStoredSession, showAccountState } from "./account-signals.ts";
import { getSupabase } from "./supabase.ts";
import { flashToast, toast } from "./toast.ts";

let started = false;

/** Called once per page by the account island. */
export function startSession(): void {
  if (started) return;
  started = true;
  const hash = hashParams();
  const linkType = hash.get("type");
  const error = hash.get("error_description");
  const message = hash.get("message");
  if (error || message) {
    // An email link that failed (expired, used) or asked for the other address's link too.
    history.replaceState(null, "", window.location.pathname + window.location.search);
    if (error) toast({ variant: "destructive", title: "Error", description: error });
    else toast({ title: "Almost there", description: `${message}.` });
  }
  const fromLink =
    hash.has("access_token") || new URLSearchParams(window.location.search).has("code");
  if (!fromLink && !hasStoredSession()) return;
  void getSupabase().then((supabase) => {
    supabase.auth.onAuthStateChange((event, session) => {
      showAccountState(session ? "signed-in" : "anonymous");
      if (event === "SIGNED_IN" && fromLink && linkType === "signup") {
        toast({ title: "Email confirmed", description: "Welcome to Revwise! You're signed in." });
      } else if (event === "SIGNED_IN" && fromLink && linkType === "email_change") {
        toast({
          title: "Email address updated",
          description: "Your account now uses your new email address.",
        });
      }
    });
  });
}

/** Spec §2: Logout signs out, goes to / and says "Logged out successfully"; on failure "Failed to log out". */
export async function signOut(): Promise<void> {
  try {
    const supabase = await getSupabase();
    const { error } = await supabase.auth.signOut();
    if (error) throw error;
    flashToast({ title: "Logged out successfully" });
    window.location.assign("/");
  } catch {
    toast({ variant: "destructive", title: "Error", description: "Failed to log out" });
  }
}
