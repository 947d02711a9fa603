// The header's account button: Logout (and the account page) when signed in, Request Access
// otherwise. Both are in the page, in one slot of a fixed width; which one shows is decided by the
// <html> element's data-account (lib/account-signals.ts), so the right one is there from the first
// paint and the header does not move when the session is confirmed. Logout is busy until it is done
// (a press meanwhile does nothing; lib/session.ts says how it went).
import { useEffect } from "react";
import { accountLink } from "../../content/site.ts";
import { RequestAccessButton } from "../../forms/request-access-button.tsx";
import { cn } from "../../lib/cn.ts";
import { signOut, startSession } from "../../lib/session.ts";
import { useBusyAction } from "../../lib/use-busy-action.ts";
import { Button } from "../ui/button.tsx";
import { Icon } from "../ui/icon.tsx";

export function AccountAction({
  size,
  onRequestAccess,
}: {
  size?: "default" | "lg";
  /** Opens a Request Access dialog kept by the caller; without it the button keeps its own. */
  onRequestAccess?: () => void;
}) {
  const [busy, run] = useBusyAction();
  useEffect(startSession, []);
  const wide = size === "lg";
  return (
    <span data-slot="account-action" className={cn("grid", wide ? "w-full" : "w-36")}>
      <RequestAccessButton
        size={size}
        onOpen={onRequestAccess}
        className="w-full in-data-[account=signed-in]:hidden"
      />
      {/* In the header's slot the account page is an icon beside Logout; in the drawer, a row. */}
      <span
        className={cn(
          "hidden gap-2 in-data-[account=signed-in]:grid",
          !wide && "grid-cols-[auto_1fr]",
        )}
      >
        <Button asChild size={wide ? "lg" : "icon"} variant="outline">
          <a
            href={accountLink.href}
            aria-label={wide ? undefined : accountLink.label}
            title={wide ? undefined : accountLink.label}
          >
            <Icon name="user" />
            {wide && accountLink.label}
          </a>
        </Button>
        <Button
          size={size}
          variant="outline"
          aria-disabled={busy}
          className="w-full"
          onClick={() => void run(signOut)}
        >
          Logout
        </Button>
      </span>
    </span>
  );
}
