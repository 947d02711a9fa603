// A button's action that takes a while (a request): busy until it is done, so the button, given
// `aria-disabled={busy}`, ignores presses meanwhile and keeps the focus; a failure (a thrown error)
// shows as a toast. An action asked while one runs is ignored, even when both come before React
// renders again (two held presses replayed together).
import { useRef, useState } from "react";
import { withErrorToast } from "./toast.ts";

export function useBusyAction(): [
  busy: boolean,
  run: (action: () => Promise<void>) => Promise<void>,
] {
  const [busy, setBusy] = useState(false);
  const running = useRef(false);
  const run = async (action: () => Promise<void>) => {
    if (running.current) return;
    running.current = true;
    setBusy(true);
    try {
      await withErrorToast(action);
    } finally {
      running.current = false;
      setBusy(false);
    }
  };
  return [busy, run];
}
