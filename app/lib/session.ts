// The visitor's account state for the islands that show it (header: Logout or Request Access).
// supabase-js loads only when there is a session to keep alive: one stored by an earlier visit,
// or one arriving in the URL from an email link. Its auth events decide which button shows.
import { emailLinkResult, hasSessionToResume, showAccountState } from "./account-signals.ts";
import { getSupabase } from "./supabase.ts";
import { flashToast, toast } from "./toast.ts";

let started = false;

/** Called once per page by the account island. */
export function startSession(): void {
  if (started) return;
  started = true;
  const link = emailLinkResult();
  if (link.error || link.message) {
    // An email link that failed (expired, used) or asked for the other address's link too.
    history.replaceState(null, "", window.location.pathname + window.location.search);
    if (link.error) toast({ variant: "destructive", title: "Error", description: link.error });
    else toast({ title: "Almost there", description: `${link.message}.` });
  }
  if (!hasSessionToResume()) return;
  void getSupabase().then((supabase) => {
    supabase.auth.onAuthStateChange((event, session) => {
      showAccountState(session);
      if (event === "SIGNED_IN" && link.session && link.type === "signup") {
        toast({ title: "Email confirmed", description: "Welcome to Revwise! You're signed in." });
      } else if (event === "SIGNED_IN" && link.session && link.type === "email_change") {
        toast({
          title: "Email address updated",
          description: "Your account now uses your new email address.",
        });
      }
    });
  });
}

let signingOut: Promise<void> | null = null;

/**
 * Logout signs out, goes to / and says "Logged out successfully"; on failure "Failed to log out".
 * A second press while the first is under way (a double click, two Logout buttons) joins it: one
 * request, one toast.
 */
export function signOut(): Promise<void> {
  signingOut ??= leave().finally(() => (signingOut = null));
  return signingOut;
}

async function leave(): Promise<void> {
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
