// The header's account button: Logout when signed in, Request Access otherwise. Both are in the
// page, in one slot of a fixed width; which one shows is decided by the <html> element's
// data-account (lib/account-signals.ts), so the right one is there from the first paint and the
// header does not move when the session is confirmed.
import { useEffect, useState } from "react";
import { RequestAccessButton } from "../../forms/request-access-button.tsx";
import { cn } from "../../lib/cn.ts";
import { signOut, startSession } from "../../lib/session.ts";
import { Button } from "../ui/button.tsx";

export function AccountAction({
  size,
  onRequestAccess,
}: {
  size?: "default" | "lg";
  /** Opens a Request Access dialog kept by the caller; without it the button keeps its own. */
  onRequestAccess?: () => void;
}) {
  const [busy, setBusy] = useState(false);
  useEffect(startSession, []);
  return (
    <span data-slot="account-action" className={cn("grid", size === "lg" ? "w-full" : "w-36")}>
      <RequestAccessButton
        size={size}
        onOpen={onRequestAccess}
        className="w-full in-data-[account=signed-in]:hidden"
      />
      <Button
        size={size}
        variant="outline"
        disabled={busy}
        className="hidden w-full in-data-[account=signed-in]:inline-flex"
        onClick={async () => {
          setBusy(true);
          await signOut();
          setBusy(false);
        }}
      >
        Logout
      </Button>
    </span>
  );
}
