// The way out of the account pages: back to the site, or Logout (busy until it is done: a second
// press joins the first, lib/session.ts).
import { signOut } from "../../lib/session.ts";
import { useBusyAction } from "../../lib/use-busy-action.ts";
import { Button } from "../ui/button.tsx";

export function SiteAndLogout({ size }: { size?: "default" | "lg" }) {
  const [busy, run] = useBusyAction();
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
        onClick={() => void run(signOut)}
      >
        Logout
      </Button>
    </>
  );
}
