// The header's account button: Logout when signed in, Request Access otherwise.
import { useEffect, useState } from "react";
import { RequestAccessButton } from "../../forms/request-access-button.tsx";
import { signOut, startSession, useSessionStatus } from "../../lib/session.ts";
import { Button } from "../ui/button.tsx";

export function AccountAction({ size }: { size?: "default" | "lg" }) {
  const status = useSessionStatus();
  const [busy, setBusy] = useState(false);
  useEffect(startSession, []);
  if (status !== "signed-in") return <RequestAccessButton size={size} />;
  return (
    <Button
      size={size}
      variant="outline"
      disabled={busy}
      onClick={async () => {
        setBusy(true);
        await signOut();
        setBusy(false);
      }}
    >
      Logout
    </Button>
  );
}
