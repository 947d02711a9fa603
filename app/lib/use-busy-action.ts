// A button's action that takes a while (a request): busy until it is done, so the button, given
// `aria-disabled={busy}`, ignores presses meanwhile and keeps the focus; a failure (a thrown error)
// shows as a toast.
import { useState } from "react";
import { withErrorToast } from "./toast.ts";

export function useBusyAction(): [
  busy: boolean,
  run: (action: () => Promise<void>) => Promise<void>,
] {
  const [busy, setBusy] = useState(false);
  const run = async (action: () => Promise<void>) => {
    setBusy(true);
    await withErrorToast(action);
    setBusy(false);
  };
  return [busy, run];
}
