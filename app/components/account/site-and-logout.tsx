// The way out of the account pages: back to the site, or Logout (busy until it is done: a second
// press joins the first, lib/session.ts).
import { useState } from "react";
import { signOut } from "../../lib/session.ts";
import { Button } from "../ui/button.tsx";

export function SiteAndLogout({ size }: { size?: "default" | "lg" }) {
  const [busy, setBusy] = useState(false);
  const logOut = async () => {
    setBusy(true);
    await signOut();
    setBusy(false);
  };
  return (
    <>
      <Button asChild size={size} variant="outline">
        <a href="/">Back to the site</a>
      </Button>
      <Button
        type="button"
        variant="ghost"
        aria-disabled={busy}
        aria-busy={busy}
        onClick={() => void logOut()}
      >
        Logout
      </Button>
    </>
  );
}
